/**
 * The request examples of production's docs site, read once into a fixture the tests replay:
 *
 *   npm run production:examples -- path/to/grid-api [--commit <sha>] [--out test/fixtures/production/docs-requests.json]
 *
 * Reads every `curl` command of `mintlify/**\/*.mdx` in a checkout of lightsparkdev/grid-api (Apache-2.0),
 * keeps those with a JSON body (`-d '…'`) whose method and path are an operation of production's document,
 * and writes each with its file, line, method, path and body. Shell and docs shorthand in a body is read
 * the way a reader of the docs reads it: `# comments`, trailing commas and the doubled braces of a body written
 * inside JSX (`{{ … }}`) are dropped, and a spliced shell
 * variable (`'"$VAR"'`) becomes the string `"$VAR"`. A body that still is not JSON (`{"accountNumber": …, ...}`)
 * is kept as `placeholder`, with its text: the docs elide it, and nobody can send it as written.
 * `test/sandbox/production-requests.test.ts` sends each through the SDK and the sandbox. The pages' JSON
 * blocks that hold a webhook envelope are kept too, for `test/webhooks/production-examples.test.ts`.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** One request example of production's docs. */
export interface DocsRequest {
  /** The page, relative to the repository root, and the line its `curl` starts on. */
  file: string;
  line: number;
  method: string;
  /** The path as the page writes it, after the base URL (`/customers/{customerId}`, or a literal id). */
  path: string;
  /** Production's path template that the path matches. */
  operation: string;
  /** The body, parsed; absent for a placeholder. */
  body?: unknown;
  /** The body's text, when it is a placeholder the docs elide (not JSON even after the shorthand is read). */
  placeholder?: string;
}

/**
 * One webhook delivery a docs page shows: a JSON block holding an envelope (`type` and `data`; most pages
 * give `id` and `timestamp` too, some show an excerpt of `data`).
 */
export interface DocsWebhook {
  file: string;
  line: number;
  body: { id?: string; type: string; timestamp?: string; data: unknown };
}

export interface DocsRequests {
  $comment: string;
  repository: string;
  commit: string;
  license: string;
  examples: DocsRequest[];
  webhooks: DocsWebhook[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Production's operations as `{ method, template, pattern }`. */
function operationsOf(document: Record<string, any>) {
  return Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      })),
  );
}

/** Drops `# comments` outside strings and trailing commas; splices shell variables as strings. */
export function readShorthand(text: string): string {
  // A page that writes its body inside a JSX expression doubles the outer braces: `{{ … }}`.
  const trimmed = text.trim();
  const unwrapped = trimmed.startsWith('{{') && trimmed.endsWith('}}') ? trimmed.slice(1, -1) : text;
  const spliced = unwrapped.replace(/'"'?"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?'?"'/g, '$$$1');
  let out = '';
  let inString = false;
  for (let i = 0; i < spliced.length; i++) {
    const c = spliced[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += spliced[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '#') {
      while (i < spliced.length && spliced[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** The `curl` commands of one page with a JSON body, matched to production's operations. */
export function requestsOf(file: string, text: string, operations: ReturnType<typeof operationsOf>): DocsRequest[] {
  const found: DocsRequest[] = [];
  const command = /curl\b[\s\S]*?(?=\n```|\n\s*\n|$)/g;
  for (const match of text.matchAll(command)) {
    const cmd = match[0].replace(/\\\n/g, ' ');
    const data = cmd.match(/(?:-d|--data(?:-raw)?)\s+'([\s\S]*?)'(?=\s*(?:$|\n|-[A-Za-z]|\|))/);
    const url = cmd.match(/https?:\/\/[^\s'"]+/)?.[0];
    if (!data || !url) continue;
    const method = (cmd.match(/(?:-X|--request)\s+([A-Z]+)/)?.[1] ?? 'POST').toUpperCase();
    const path = decodeURI(
      url
        .replace(/^https?:\/\/[^/]+/, '')
        .replace(/^\/grid\/\d{4}-\d{2}-\d{2}/, '')
        .replace(/\?.*$/, ''),
    );
    const operation = operations.find((o) => o.method === method && o.pattern.test(path));
    if (!operation) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const request: DocsRequest = { file, line, method, path, operation: operation.template };
    try {
      request.body = JSON.parse(readShorthand(data[1]!));
    } catch {
      request.placeholder = data[1]!;
    }
    found.push(request);
  }
  return found;
}

/** The JSON blocks of one page that hold a webhook envelope (an event `type` and its `data`). */
export function webhooksOf(file: string, text: string): DocsWebhook[] {
  const found: DocsWebhook[] = [];
  for (const match of text.matchAll(/```json[^\n]*\n([\s\S]*?)\n\s*```/g)) {
    let body: unknown;
    try {
      body = JSON.parse(readShorthand(match[1]!));
    } catch {
      continue;
    }
    const envelope = body as DocsWebhook['body'];
    if (!envelope || typeof envelope !== 'object' || typeof envelope.data !== 'object' || envelope.data === null) continue;
    if (typeof envelope.type !== 'string' || !/^[A-Z_]+\.[A-Z_]+$/.test(envelope.type)) continue;
    found.push({ file, line: text.slice(0, match.index).split('\n').length, body: envelope });
  }
  return found;
}

function pagesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pagesOf(path);
    return /\.mdx?$/.test(name) ? [path] : [];
  });
}

function main(argv: string[]): void {
  const root = resolve(argv.find((a) => !a.startsWith('--')) ?? '');
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(option('--out') ?? join(here, '..', 'test', 'fixtures', 'production', 'docs-requests.json'));
  const commit = option('--commit') ?? execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const operations = operationsOf(parse(readFileSync(join(root, 'openapi.yaml'), 'utf8')));
  const pages = pagesOf(join(root, 'mintlify')).sort();
  const examples = pages.flatMap((page) => requestsOf(relative(root, page), readFileSync(page, 'utf8'), operations));
  const webhooks = pages.flatMap((page) => webhooksOf(relative(root, page), readFileSync(page, 'utf8')));
  const fixture: DocsRequests = {
    $comment: 'Written by scripts/production-examples.ts from the docs site of lightsparkdev/grid-api (Apache-2.0); do not edit.',
    repository: 'lightsparkdev/grid-api',
    commit,
    license: 'Apache-2.0',
    examples,
    webhooks,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(fixture, null, 1)}\n`);
  const placeholders = examples.filter((e) => e.placeholder !== undefined).length;
  console.log(
    `${examples.length} request examples (${placeholders} placeholders) and ${webhooks.length} webhooks from ${commit.slice(0, 8)} -> ${relative(process.cwd(), out)}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
