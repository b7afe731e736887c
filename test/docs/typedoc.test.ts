/**
 * `npm run docs` builds the API reference without a single warning (typedoc.json sets
 * treatWarningsAsErrors), and the reference documents every resource class and the key types.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crossborder } from 'crossborder-sdk';
import * as sdk from 'crossborder-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from './markdown';

interface Reflection {
  name: string;
  kind: number;
  children?: Reflection[];
}

/** TypeDoc's ReflectionKind values used here. */
const KIND = { Module: 2, Class: 128 } as const;

let out: string;
let project: Reflection;
let log: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'crossborder-typedoc-'));
  log = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', join(out, 'html'), '--json', join(out, 'api.json')],
      { cwd: root, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
      (error, stdout, stderr) => (error ? reject(new Error(`typedoc failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(`${stdout}\n${stderr}`)),
    );
  });
  project = JSON.parse(readFileSync(join(out, 'api.json'), 'utf8')) as Reflection;
}, 150_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const moduleNamed = (name: string) => {
  const found = project.children?.find((m) => m.kind === KIND.Module && m.name === name);
  if (!found) throw new Error(`no module ${name}: ${project.children?.map((m) => m.name).join(', ')}`);
  return found;
};
const names = (module: Reflection) => (module.children ?? []).map((c) => c.name);

describe('API reference (typedoc)', () => {
  it('builds with no warning and no error', () => {
    expect(log).not.toMatch(/\[warning\]|\[error\]/);
    expect(existsSync(join(out, 'html', 'index.html'))).toBe(true);
  });

  it('has one module per package entry point', () => {
    expect(project.children?.map((m) => m.name).sort()).toEqual(['crossborder-sdk', 'crossborder-sdk/sandbox', 'crossborder-sdk/sandbox/msw', 'crossborder-sdk/wallet']);
  });

  it('documents the class behind every resource of the client as a class', () => {
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's' });
    const resources = new Set<string>();
    const visit = (value: object, depth: number) => {
      for (const child of Object.values(value)) {
        if (child && typeof child === 'object' && '_client' in child) {
          resources.add(child.constructor.name);
          if (depth < 2) visit(child, depth + 1);
        }
      }
    };
    visit(cb, 0);
    expect([...resources]).toEqual(expect.arrayContaining(['Customers', 'Quotes', 'Transactions', 'Credentials', 'Sessions', 'PlatformExternalAccounts', 'Webhooks']));
    const main = moduleNamed('crossborder-sdk');
    const classes = (main.children ?? []).filter((c) => c.kind === KIND.Class).map((c) => c.name);
    for (const name of resources) expect(classes, name).toContain(name);
    const page = readFileSync(join(out, 'html', 'modules', 'crossborder-sdk.html'), 'utf8');
    for (const name of resources) expect(page, name).toContain(`>${name}<`);
  });

  it('documents every export of the main entry, and the key types', () => {
    const main = names(moduleNamed('crossborder-sdk'));
    for (const name of Object.keys(sdk)) expect(main, name).toContain(name);
    for (const type of ['ClientOptions', 'RequestOptions', 'SignedRequestOptions', 'ListOptions', 'Page', 'PagePromise', 'APIPromise', 'Customer', 'Quote', 'QuoteCreateParams', 'Transaction', 'WebhookEvent', 'ErrorCode', 'SignatureChallenge', 'ValidationIssue']) {
      expect(main, type).toContain(type);
    }
  });

  it('documents the sandbox and wallet entry points', () => {
    expect(names(moduleNamed('crossborder-sdk/sandbox'))).toEqual(expect.arrayContaining(['createSandbox', 'MAGIC', 'Sandbox', 'SandboxOptions', 'createClock', 'signWebhook', 'generateWebhookKeyPair']));
    expect(names(moduleNamed('crossborder-sdk/wallet'))).toEqual(expect.arrayContaining(['generateClientKeyPair', 'WalletSession', 'sessionKeySigner', 'passkeyAttestation', 'passkeyAssertion', 'ClientKeyPair']));
  });

  it('names each reflection once per module', () => {
    for (const module of project.children ?? []) {
      const all = names(module);
      expect(all.filter((n, i) => all.indexOf(n) !== i), module.name).toEqual([]);
    }
  });
});
