/**
 * The docs travel with the package (issue 23): the tarball installed in a scratch project (only the
 * package's own dependencies beside it) holds what its README links to, the LICENSE, and the
 * webhook guide's narrowing snippet type-checks there as a user's project would (NodeNext).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bin, makeConsumer } from '../setup/packed';

const packed = inject('packed');
let scratch: string;
let consumer: string;
let installed: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'crossborder-docs-'));
  consumer = makeConsumer(packed, join(scratch, 'consumer'), ['@types/node']);
  installed = join(consumer, 'node_modules', 'crossborder-sdk');
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Relative links (outside code blocks) of a Markdown file inside the installed package, with the file they name. */
function relativeLinks(file: string): { href: string; target: string }[] {
  const text = readFileSync(join(installed, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
    .map((href) => ({ href, target: normalize(join(dirname(file), href.split('#')[0]!)) }));
}

describe('the installed package', () => {
  it('holds every file the README links to', () => {
    const links = relativeLinks('README.md');
    expect(links.length).toBeGreaterThanOrEqual(16);
    const missing = links.filter(({ target }) => target.startsWith('..') || !existsSync(join(installed, target)));
    expect(missing).toEqual([]);
  });

  it('holds what the guides the README links to link to in turn (docs and examples)', () => {
    const guides = [
      ...new Set(
        relativeLinks('README.md')
          .map((l) => l.target)
          .filter((t) => t.startsWith('docs/') && t.endsWith('.md')),
      ),
    ];
    expect(guides).toContain('docs/webhooks.md');
    const missing = guides.flatMap((guide) =>
      relativeLinks(guide)
        .filter(({ target }) => target.startsWith('..') || !existsSync(join(installed, target)))
        .map(({ href }) => `${guide}: ${href}`),
    );
    expect(missing).toEqual([]);
  });

  it('every relative link of every Markdown file it ships resolves inside it (0 broken)', () => {
    const shipped = (readdirSync(installed, { recursive: true }) as string[]).filter((f) => f.endsWith('.md') && !f.startsWith('node_modules'));
    expect(shipped).toContain('README.md');
    expect(shipped).toContain(join('docs', 'performance.md'));
    expect(shipped).toContain(join('docs', 'reliability.md'));
    const links = shipped.flatMap((file) => relativeLinks(file).map((link) => ({ file, ...link })));
    expect(links.length).toBeGreaterThanOrEqual(80);
    // Outside the package (../), or a file it does not hold (the repository's test/ and scripts/ do not ship).
    const broken = links.filter(({ target }) => target.startsWith('..') || !existsSync(join(installed, target))).map(({ file, href }) => `${file}: ${href}`);
    expect(broken).toEqual([]);
  });

  it('ships the MIT LICENSE, and package.json names no placeholder address', () => {
    const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
    expect(license.split('\n')[0]).toBe('MIT License');
    expect(license).toContain('Copyright (c) 2026 the crossborder-sdk authors');
    const manifest = readFileSync(join(installed, 'package.json'), 'utf8');
    expect(JSON.parse(manifest).license).toBe('MIT');
    expect(manifest).not.toMatch(/example\.(invalid|com|org)|TODO|placeholder/i);
  });

  it('type-checks the webhook narrowing snippet of docs/webhooks.md, and a wrong field is an error', { timeout: 150_000 }, () => {
    const snippet = readFileSync(join(installed, 'examples', 'webhooks', 'on-event.ts'), 'utf8');
    expect(readFileSync(join(installed, 'docs', 'webhooks.md'), 'utf8')).toContain(snippet);
    mkdirSync(join(consumer, 'src'), { recursive: true });
    writeFileSync(join(consumer, 'src', 'on-event.ts'), snippet);
    writeFileSync(
      join(consumer, 'src', 'inline.ts'),
      "import type { UnknownEvent, WebhookEvent } from 'crossborder-sdk';\n" +
        "export function status(event: WebhookEvent | UnknownEvent) {\n  if (event.type === 'OUTGOING_PAYMENT.COMPLETED') return event.data.status;\n  return undefined;\n}\n",
    );
    const tsc = (files: string[]) => {
      const config = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          skipLibCheck: true,
        },
        files,
      };
      writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(config));
      try {
        execFileSync(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: consumer, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    };
    expect(tsc(['src/on-event.ts', 'src/inline.ts'])).toBe('');
    writeFileSync(join(consumer, 'src', 'wrong.ts'), snippet.replace('event.data.status', 'event.data.sttaus'));
    expect(tsc(['src/wrong.ts'])).toMatch(/wrong\.ts.*error TS2551.*sttaus/);
  });
});
