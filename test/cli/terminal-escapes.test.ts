/**
 * What the CLI prints of an answer, against a hostile service (a server on 127.0.0.1 whose answers carry terminal
 * controls: ESC sequences that clear the screen or colour it, a carriage return that forges a line, C1's CSI, the
 * bidi override): the packed bin's tables, its `--json` lines and its error report show each control visibly
 * (`\x1b`, `\u202e`), so an end user's name in a customer list cannot act on the operator's terminal. `--json`
 * still parses to exactly what the service sent.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, eventually, startSandbox } from './helpers';

/** Characters a terminal acts on (the newline aside: the CLI's own lines). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const NAME = 'Eve\u001b[2J\u001b[31mRED';
const EMAIL = 'eve@\u202eelpmaxe.com';
const NICKNAME = 'x\u009b31m\u0007';
const FORGED = 'not found\r\nbatch OK: 0 failed\u001b[2K';
const customer = { id: 'Customer:019542f5-b3e7-1d02-0000-000000000001', customerType: 'INDIVIDUAL', fullName: NAME, email: EMAIL, nickname: NICKNAME };

let server: Server;
let env: Record<string, string>;

beforeAll(async () => {
  server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
      res.end(JSON.stringify(body));
    };
    if (req.url?.startsWith('/2025-10-13/customers?') || req.url === '/2025-10-13/customers')
      return send(200, { data: [customer], hasMore: false, totalCount: 1 });
    if (decodeURIComponent(req.url ?? '') === `/2025-10-13/customers/${customer.id}`) return send(200, customer);
    return send(404, { status: 404, code: 'CUSTOMER_NOT_FOUND', message: FORGED });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  env = {
    CROSSBORDER_BASE_URL: `http://127.0.0.1:${port}`,
    CROSSBORDER_TOKEN_ID: 't',
    CROSSBORDER_CLIENT_SECRET: 's',
    CROSSBORDER_ENVIRONMENT: 'sandbox',
    COLUMNS: '250',
  };
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('a hostile answer, printed by the CLI', () => {
  it('a list table shows every control visibly, and keeps the rest of each value', async () => {
    const ran = await cli(['customers', 'list'], { env });
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).not.toMatch(RAW);
    expect(ran.out).toContain('Eve\\x1b[2J\\x1b[31mRED');
    expect(ran.out).toContain('eve@\\u202eelpmaxe.com');
    expect(ran.out).toContain('x\\x9b31m\\x07');
    expect(ran.out).toContain(customer.id);
  });

  it('one object (two columns) too', async () => {
    const ran = await cli(['customers', 'get', customer.id], { env });
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).not.toMatch(RAW);
    expect(ran.out).toMatch(/fullName\s+Eve\\x1b\[2J\\x1b\[31mRED\n/);
  });

  it('--json: one line a terminal cannot act on, parsing to exactly what the service sent', async () => {
    for (const args of [
      ['customers', 'get', customer.id, '--json'],
      ['customers', 'list', '--json'],
      ['customers', 'list', '--all', '--json'],
    ]) {
      const ran = await cli(args, { env });
      expect(ran.code, `${args.join(' ')}: ${ran.err}`).toBe(0);
      expect(ran.out, args.join(' ')).not.toMatch(RAW);
      const value = JSON.parse(ran.out.trim().split('\n')[0]!) as { fullName?: string; data?: { fullName: string }[] };
      expect(value.fullName ?? value.data![0]!.fullName).toBe(NAME);
    }
  });

  it("the error report: the service's message cannot forge a line or move the cursor (text and --json)", async () => {
    const ran = await cli(['customers', 'get', 'Customer:missing'], { env });
    expect(ran.code).not.toBe(0);
    expect(ran.err).not.toMatch(RAW);
    expect(ran.err).toContain('not found\\x0d\\x0abatch OK: 0 failed\\x1b[2K');
    expect(ran.err).toContain('request id: req-1');
    expect(ran.err.split('\n').filter((line) => line.startsWith('batch OK'))).toEqual([]);
    const asJson = await cli(['customers', 'get', 'Customer:missing', '--json'], { env });
    expect(asJson.err).not.toMatch(RAW);
    expect((JSON.parse(asJson.err.trim()) as { message: string }).message).toBe(`404 CUSTOMER_NOT_FOUND: ${FORGED} (request req-1)`);
  });
});

describe("a hostile webhook receiver, in the sandbox's log", () => {
  it('a redirect whose Location carries a C1 control (CSI, as the Latin-1 byte 0x9b HTTP allows) is logged visibly', async () => {
    // Written byte for byte: a Node server refuses to send such a header, a hostile one does not.
    const receiver = createTcpServer((socket) => {
      socket.once('data', () =>
        socket.end(
          Buffer.from('HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1/x\x9b2Jy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', 'latin1'),
        ),
      );
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const { port } = receiver.address() as AddressInfo;
    const sandbox = await startSandbox(['--webhook-url', `http://127.0.0.1:${port}/hook`]);
    try {
      const sent = await cli(['sandbox', 'trigger', 'TEST', '--url', sandbox.url]);
      expect(sent.code, sent.err).toBe(0);
      expect(await eventually(() => sandbox.output().includes('a redirect (307 to http://127.0.0.1/x'))).toBe(true);
      expect(sandbox.output()).toContain('a redirect (307 to http://127.0.0.1/x\\x9b2Jy) is not followed');
      expect(sandbox.output()).not.toMatch(RAW);
    } finally {
      expect(await sandbox.stop()).toBe(0);
      receiver.close();
    }
  }, 60_000);
});
