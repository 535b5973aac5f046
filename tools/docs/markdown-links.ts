import fs from 'node:fs';
import path from 'node:path';
import { headingAnchors } from '../monitoring/runbook-anchors';

/** Folders that hold no markdown of ours: installs, build output, caches, run data. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.git', '.nx', '.cache', '.run', 'tmp']);

/** Every markdown file under `root` (relative paths, sorted), outside installs, output and caches. */
export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && rel !== path.join('bench', 'results')) walk(full);
      } else if (entry.isFile() && entry.name.endsWith('.md')) {
        found.push(rel.split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

export interface MarkdownLink {
  /** 1-based line of the link in its file. */
  line: number;
  target: string;
}

/**
 * The link targets of a markdown text: inline links and images `[text](target "title")`, autolinks
 * aside, and reference definitions `[label]: target`. Fenced code blocks and inline code spans are
 * not markdown links, so what they show is skipped.
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((raw, index) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opening) {
      if (fence === undefined) fence = opening[1][0];
      else if (opening[1][0] === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const line = raw.replace(/(`+)[^`]*?\1/g, ''); // inline code spans
    for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: index + 1, target: match[1].replace(/^<|>$/g, '') });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (definition) links.push({ line: index + 1, target: definition[1].replace(/^<|>$/g, '') });
  });
  return links;
}

/** The anchors a markdown file offers: its headings' GitHub anchors and explicit `<a id|name="…">`. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = headingAnchors(markdown);
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  return anchors;
}

/**
 * What is wrong with the relative links of `file` (relative to `root`): a target that does not
 * exist, or an `#anchor` that is no heading of the markdown file it points to (the same file for a
 * bare `#anchor`). External links (with a scheme, or `//host`) are not followed.
 */
export function brokenLinks(root: string, file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (target: string) => {
    let set = anchorsOf.get(target);
    if (!set) {
      set = markdownAnchors(fs.readFileSync(target, 'utf8'));
      anchorsOf.set(target, set);
    }
    return set;
  };
  for (const { line, target } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const hash = target.indexOf('#');
    const filePart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart
      ? path.resolve(path.dirname(path.join(root, file)), filePart)
      : path.join(root, file);
    const where = `${file}:${line}: ${target}`;
    if (filePart.startsWith('/') || path.relative(root, resolved).startsWith('..')) {
      problems.push(`${where}: points outside the repository`);
      continue;
    }
    if (!fs.existsSync(resolved)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md') || !fs.statSync(resolved).isFile()) continue;
    if (!anchors(resolved).has(anchor)) problems.push(`${where}: no heading with this anchor`);
  }
  return problems;
}
