import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';

/**
 * `clock` as the Clock of every module, the way an app's global root module provides it: for
 * module set-ups without that root (tests, bench scenarios) that build modules injecting the Clock,
 * such as MessagingModule.
 */
@Module({})
export class GlobalClockModule {
  static of(clock: Clock): DynamicModule {
    return {
      module: GlobalClockModule,
      global: true,
      providers: [{ provide: Clock, useValue: clock }],
      exports: [Clock],
    };
  }
}
