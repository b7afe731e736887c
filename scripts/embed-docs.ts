/**
 * The guides show example files verbatim: a fenced block whose opening fence follows `<!-- embed: path -->`
 * holds exactly that file (test/docs/guides.test.ts and test/webhooks/docs.test.ts compare them).
 * `npm run docs:embed` writes each such block again from its file, after an edit or `npm run format`;
 * `--check` only lists the blocks that differ and exits 1 if any does.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const check = process.argv.includes('--check');
const EMBED = /(<!-- embed: (\S+) -->\n```\w*\n)([\s\S]*?)(```\n)/g;

const guides = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const stale: string[] = [];
for (const guide of guides) {
  const before = readFileSync(join(root, guide), 'utf8');
  const after = before.replace(EMBED, (block: string, open: string, file: string, code: string, close: string) => {
    const text = readFileSync(join(root, file), 'utf8');
    if (text === code) return block;
    stale.push(`${guide}: ${file}`);
    return `${open}${text}${close}`;
  });
  if (!check && after !== before) writeFileSync(join(root, guide), after);
}
for (const line of stale) console.log(`${check ? 'out of date' : 'written'}  ${line}`);
if (check && stale.length > 0) process.exit(1);
