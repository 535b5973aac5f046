import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokenLinks, markdownFiles, markdownLinks } from './markdown-links';

// The repository's markdown stays navigable: every relative link reaches a file, every #anchor a
// heading of its target (GitHub's anchors), and the README stays a page read in five minutes.
const root = path.resolve(__dirname, '..', '..');
const files = markdownFiles(root);

describe('the markdown of the repository', () => {
  it('includes the README, every page of docs/ and the READMEs of the apps and libraries', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/running.md',
        'docs/configuration.md',
        'docs/runbook.md',
        'docs/integrator-guide.md',
        'libs/sdk/README.md',
        'bench/README.md',
      ]),
    );
    for (const page of fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')))
      expect(files).toContain(`docs/${page}`);
  });

  it.each(files)('%s: every relative link and #anchor resolves', (file) => {
    expect(brokenLinks(root, file)).toEqual([]);
  });

  it('has a README of at most 200 lines', () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
  });
});

describe('the link check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'markdown-links-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds inline links, images and reference definitions, not what code shows', () => {
    const text = [
      'See [a](a.md#x) and ![b](img/b.png "title"), `[not](code.md)`.',
      '```',
      '[not](fenced.md)',
      '```',
      '[ref]: <docs/c.md>',
    ].join('\n');
    expect(markdownLinks(text)).toEqual([
      { line: 1, target: 'a.md#x' },
      { line: 1, target: 'img/b.png' },
      { line: 5, target: 'docs/c.md' },
    ]);
  });

  it('names a missing file, a missing anchor and a link out of the repository; follows no URL', () => {
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'docs', 'guide.md'), '# Guide\n\n## The `npm start` step, again\n');
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      [
        '# Readme',
        '[ok](docs/guide.md#the-npm-start-step-again) [self](#readme) [web](https://example.com/x.md#y)',
        '[gone](docs/gone.md) [anchor](docs/guide.md#missing) [up](../elsewhere.md)',
      ].join('\n'),
    );
    expect(brokenLinks(dir, 'README.md')).toEqual([
      'README.md:3: docs/gone.md: no such file',
      'README.md:3: docs/guide.md#missing: no heading with this anchor',
      'README.md:3: ../elsewhere.md: points outside the repository',
    ]);
  });
});
