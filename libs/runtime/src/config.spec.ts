import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { ConfigValidationError, loadConfig } from './config';

class ExampleConfig {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  @IsString()
  @IsIn(['debug', 'log', 'warn'])
  LOG_LEVEL: string = 'log';
}

describe('loadConfig', () => {
  it('keeps defaults for unset or empty variables', () => {
    expect(loadConfig(ExampleConfig, { LOG_LEVEL: '' })).toEqual(Object.assign(new ExampleConfig(), {}));
  });

  it('converts numeric strings', () => {
    expect(loadConfig(ExampleConfig, { PORT: '8080' }).PORT).toBe(8080);
  });

  it('names the variable and the value that is wrong', () => {
    let thrown: unknown;
    try {
      loadConfig(ExampleConfig, { PORT: '70000', LOG_LEVEL: 'loud' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigValidationError);
    const problems = (thrown as ConfigValidationError).problems.join('\n');
    expect(problems).toContain('PORT="70000"');
    expect(problems).toContain('LOG_LEVEL="loud"');
  });
});
