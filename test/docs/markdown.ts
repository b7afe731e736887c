/** Reading the guides: fenced code blocks with their embed markers, and relative links. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export const read = (path: string) => readFileSync(join(root, path), 'utf8');

export interface Block {
  /** The file named by `<!-- embed: path -->` on the line before the fence, relative to the repository. */
  file: string | undefined;
  lang: string;
  code: string;
}

/** Every fenced block, with the embed marker (if any) on the line before its opening fence. */
export function codeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/(?:<!-- embed: (\S+) -->\n)?```(\w*)\n([\s\S]*?)```\n/g)].map((m) => ({
    file: m[1],
    lang: m[2]!,
    code: m[3]!,
  }));
}

/** GitHub's anchor of a heading. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Relative links of a Markdown file (outside code blocks) that do not resolve: missing files or anchors. */
export function brokenLinks(path: string, allowMissing: (target: string) => boolean = () => false): string[] {
  const text = read(path).replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(href!)) continue; // http:, https:, mailto:
    const [file, anchor] = href!.split('#') as [string, string | undefined];
    const target = file === '' ? path : normalize(join(dirname(path), file));
    if (!existsSync(join(root, target))) {
      if (!allowMissing(target)) broken.push(`${href} (no ${target})`);
      continue;
    }
    if (anchor && target.endsWith('.md')) {
      const headings = [
        ...read(target)
          .replace(/```[\s\S]*?```/g, '')
          .matchAll(/^#+ (.+)$/gm),
      ].map((h) => slug(h[1]!));
      if (!headings.includes(anchor)) broken.push(`${href} (no heading #${anchor} in ${target})`);
    }
  }
  return broken;
}
