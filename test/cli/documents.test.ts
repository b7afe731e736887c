/**
 * `documents upload` and `documents replace` in process (the packed bin runs every command in
 * ./operations.test.ts): `--file <path>` sends the file's bytes, under its own name, byte for byte, to a
 * sandbox over HTTP on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addResourceCommands } from '../../src/cli/resources';
import { createSandbox, type Sandbox } from '../../src/sandbox/index';

let sandbox: Sandbox;
let url: string;
let dir: string;

beforeAll(async () => {
  sandbox = createSandbox();
  url = (await sandbox.listen()).url;
  dir = mkdtempSync(join(tmpdir(), 'cb-cli-documents-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one resource command in process with `--json`; what it printed, parsed. */
async function run(...argv: string[]): Promise<any> {
  const program = new Command().exitOverride();
  const words = [...argv, '--json', '--base-url', url];
  await addResourceCommands(program, async (_json, body) => body(), words);
  const printed: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.stubEnv('CROSSBORDER_TOKEN_ID', 'tok_cli');
  vi.stubEnv('CROSSBORDER_CLIENT_SECRET', 'sk_cli');
  try {
    await program.parseAsync(words, { from: 'user' });
  } finally {
    write.mockRestore();
    vi.unstubAllEnvs();
  }
  return JSON.parse(printed.join(''));
}

describe('documents commands', () => {
  it('--file sends the bytes of the file at the path, under its name', async () => {
    const customer = await sandbox.fetch(
      new Request(`${url}/2025-10-13/customers`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('a:b')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ customerType: 'INDIVIDUAL', umaAddress: '$cli@docs.example', fullName: 'Ada Lovelace' }),
      }),
    );
    const holder = ((await customer.json()) as { id: string }).id;
    const bytes = Uint8Array.from({ length: 1024 }, (_, i) => (i * 31) % 256);
    writeFileSync(join(dir, 'passport scan.pdf'), bytes);
    const uploaded = await run(
      'documents',
      'upload',
      '--file',
      join(dir, 'passport scan.pdf'),
      '--document-holder',
      holder,
      '--document-type',
      'PASSPORT',
      '--country',
      'US',
    );
    expect(uploaded).toMatchObject({ documentHolder: holder, documentType: 'PASSPORT', country: 'US', fileName: 'passport scan.pdf' });
    const stored = () => sandbox.state.snapshot().documents.find((d) => d.id === uploaded.id)!;
    expect(stored().file).toEqual({ size: 1024, contentType: 'application/pdf', sha256: createHash('sha256').update(bytes).digest('hex') });

    const again = bytes.map((b) => 255 - b);
    writeFileSync(join(dir, 'id-front.png'), again);
    const replaced = await run(
      'documents',
      'replace',
      uploaded.id,
      '--file',
      join(dir, 'id-front.png'),
      '--document-type',
      'NATIONAL_ID',
      '--side',
      'FRONT',
      '--country',
      'FR',
    );
    expect(replaced).toMatchObject({ id: uploaded.id, documentType: 'NATIONAL_ID', side: 'FRONT', fileName: 'id-front.png' });
    expect(stored().file).toEqual({ size: 1024, contentType: 'image/png', sha256: createHash('sha256').update(again).digest('hex') });
    expect((await run('documents', 'list', '--document-holder', holder)).data.map((d: { id: string }) => d.id)).toEqual([uploaded.id]);
  });
});
