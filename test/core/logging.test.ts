import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { useMswServer } from '../helpers/msw';
import { ignoreRejection, Log, logFromOptions, maskBody, maskBodyText, redactHeaders, type Logger } from '../../src/core/logger';
import { op, rejected, SECRET, testClient } from '../helpers/client';

const BASE = 'https://api.test.invalid/2025-10-13';
const mswServer = useMswServer();

function recorder() {
  const lines: { level: string; message: string; details?: unknown }[] = [];
  const at = (level: string) => (message: string, details?: unknown) => lines.push({ level, message, details });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('logging', () => {
  it('at debug, logs requests with secrets redacted and personal fields masked', async () => {
    mswServer.use(
      http.post(`${BASE}/auth/credentials`, () => HttpResponse.json({ id: 'AuthMethod:1', encryptedSessionSigningKey: 'deadbeef'.repeat(8) }, { status: 201 })),
    );
    const { lines, logger } = recorder();
    const { client } = testClient({ logger, logLevel: 'debug' });
    await client.call(op({ method: 'POST', path: '/auth/credentials' }), {
      body: { otp: '123456', oidcToken: 'eyJhbGciOi.secret.token', fullName: 'Ada Lovelace', address: { line1: '1 Main' }, amount: 5 },
      header: { 'Service-Wallet-Signature': 'stamp-secret' },
    });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const secret of [
      SECRET,
      Buffer.from(`tok_test:${SECRET}`).toString('base64'),
      '123456',
      'eyJhbGciOi.secret.token',
      'Ada Lovelace',
      '1 Main',
      'stamp-secret',
      'deadbeef',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('"amount":5'); // non-sensitive fields stay readable
    expect(text).toContain('[redacted]');
  });

  it('an async logger whose every method rejects: the calls answer as usual, no unhandled rejection', async () => {
    mswServer.use(
      http.get(`${BASE}/x`, () => HttpResponse.json({ ok: 1 })),
      http.get(`${BASE}/y`, () => HttpResponse.json({ code: 'NOPE', message: 'no' }, { status: 404 })),
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const called: string[] = [];
    const logger: Logger = {
      debug: async (message) => (called.push(message), Promise.reject(new Error('debug sink down'))),
      info: async () => {
        called.push('info');
        throw new Error('info sink down');
      },
      warn: async () => Promise.reject(new Error('warn sink down')),
      error: async () => Promise.reject(new Error('error sink down')),
    };
    // What a method returns is typed as what the SDK does with it: not used (a promise's rejection is handled), so
    // an async logger and one whose methods return something (winston's return the logger) are both Loggers.
    expectTypeOf<ReturnType<Logger['info']>>().toEqualTypeOf<unknown>();
    expectTypeOf<{ debug: () => number; info: () => number; warn: () => number; error: () => number }>().toExtend<Logger>();
    try {
      const { client } = testClient({ logger, logLevel: 'debug' });
      await expect(client.call(op({ method: 'GET', path: '/x' }))).resolves.toEqual({ ok: 1 });
      expect((await rejected(client.call(op({ method: 'GET', path: '/y' })))).status).toBe(404);
      await new Promise((r) => setTimeout(r, 50));
      expect(called.length).toBeGreaterThanOrEqual(4);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('formats nothing when the level is off', async () => {
    mswServer.use(http.get(`${BASE}/x`, () => HttpResponse.json({})));
    let built = 0;
    const logger = new Proxy({}, { get: () => () => built++ });
    const { client } = testClient({ logger: logger as never, logLevel: 'off' });
    await client.call(op({ method: 'GET', path: '/x' }));
    expect(built).toBe(0);
  });

  it('logs retries at info', async () => {
    let n = 0;
    mswServer.use(http.get(`${BASE}/x`, () => (n++ === 0 ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json({}))));
    const { lines, logger } = recorder();
    const { client } = testClient({ logger, logLevel: 'info' });
    await client.call(op({ method: 'GET', path: '/x' }));
    // One line per attempt (method, path, status, ms, request id, attempt) and one for the retry.
    expect(lines.map((l) => l.message.replace(/\d+ms/, 'Nms'))).toEqual([
      'GET /x 500 Nms',
      'GET /x: status 500; retrying in ' + lines[1]!.message.match(/\d+ ms/)![0],
      'GET /x 200 Nms',
    ]);
    expect(lines[0]!.details).toMatchObject({ method: 'GET', path: '/x', status: 500, attempt: 1 });
    expect(lines[2]!.details).toMatchObject({ method: 'GET', path: '/x', status: 200, attempt: 2 });
    expect(lines.map((l) => l.level)).toEqual(['info', 'info', 'info']);
  });

  it('maskBody masks at any depth and leaves the input untouched', () => {
    const input = { a: [{ accountNumber: '123' }], beneficiary: { fullName: 'X', email: 'x@y' } };
    expect(maskBody(input)).toEqual({ a: [{ accountNumber: '[redacted]' }], beneficiary: { fullName: '[redacted]', email: '[redacted]' } });
    expect(input.a[0]!.accountNumber).toBe('123');
  });
});

// Field by field: what the log may show and what it never shows (the secret and personal-data
// paths of the mutation run, issue 22).
describe('the redaction rules, one by one', () => {
  it('every secret header is redacted, whatever its case, from a Headers object or a record; others pass', () => {
    const secret = ['authorization', 'service-wallet-signature', 'cookie', 'set-cookie', 'proxy-authorization'];
    const record = Object.fromEntries([...secret.map((n) => [n.toUpperCase(), `v-${n}`]), ['X-Request-Id', 'req_1']]);
    const fromRecord = redactHeaders(record);
    const headers = new Headers(record);
    const fromHeaders = redactHeaders(headers);
    for (const out of [fromRecord, fromHeaders]) {
      for (const name of secret) expect(out[name]).toBe('[redacted]');
      expect(out['x-request-id']).toBe('req_1');
    }
    expect(Object.keys(fromRecord).sort()).toEqual([...secret, 'x-request-id'].sort());
  });

  it('each personal or secret field name is masked wherever it appears; the fields beside it stay', () => {
    const names = [
      'accountInfo',
      'beneficiary',
      'businessInfo',
      'address',
      'senderCustomerInfo',
      'receiverCustomerInfo',
      'counterpartyInformation',
      'beneficiaryVerifiedData',
      'identity',
      'kyc',
      'fullName',
      'firstName',
      'lastName',
      'legalName',
      'doingBusinessAs',
      'nickname',
      'birthDate',
      'nationality',
      'countryOfResidence',
      'line1',
      'line2',
      'city',
      'postalCode',
      'taxId',
      'registrationNumber',
      'accountNumber',
      'routingNumber',
      'iban',
      'bic',
      'swiftCode',
      'pixKey',
      'email',
      'phoneNumber',
      'umaAddress',
      'inviterUma',
      'inviteeUma',
      'receiverUmaAddress',
      'senderUmaAddress',
      'toUmaAddress',
      'otp',
      'oidcToken',
      'clientPublicKey',
      'encryptedSessionSigningKey',
      'encryptedWalletCredentials',
      'privateKey',
      'sessionKey',
      'payloadToSign',
      'signature',
      'attestation',
      'assertion',
      // KYC/KYB (issue 34): a beneficial owner's identity and id number, a hosted KYC link and its provider token.
      'personalInfo',
      'identifier',
      'kycUrl',
      'token',
    ];
    for (const name of names) {
      expect(maskBody({ [name]: 'value-1', amount: 7, note: 'kept' }), name).toEqual({ [name]: '[redacted]', amount: 7, note: 'kept' });
      expect(maskBody({ outer: [{ [name]: 42 }] }), name).toEqual({ outer: [{ [name]: '[redacted]' }] });
      // Holding an object: a personal-data object (its values masked, its shape kept).
      expect(maskBody({ [name]: { inner: 'value-2', n: 3, ok: true } }), name).toEqual({ [name]: { inner: '[redacted]', n: '[redacted]', ok: '[redacted]' } });
    }
    // Null and absent values say nothing: kept, inside a personal-data object too.
    expect(maskBody({ fullName: null, accountInfo: { iban: null, bic: 'X' } })).toEqual({ fullName: null, accountInfo: { iban: null, bic: '[redacted]' } });
    // Outside personal data, nothing is masked.
    expect(maskBody({ amount: 5, currency: 'USD', memo: 'hello', flags: [true, 'x', 1], nested: { status: 'ok' } })).toEqual({
      amount: 5,
      currency: 'USD',
      memo: 'hello',
      flags: [true, 'x', 1],
      nested: { status: 'ok' },
    });
  });

  it('inside a personal-data object, the allow-list shows only values of its form', () => {
    const box = (fields: Record<string, unknown>) => (maskBody({ accountInfo: fields }) as { accountInfo: Record<string, unknown> }).accountInfo;
    // Each allow-listed field, with a value of its form: shown.
    const shown = {
      id: 'ExternalAccount:a1.b-c_2',
      customerId: 'Customer:1',
      accountId: 'InternalAccount:9',
      accountType: 'EUR_ACCOUNT',
      beneficiaryType: 'INDIVIDUAL',
      customerType: 'BUSINESS',
      pixKeyType: 'CPF',
      accountCategory: 'CHECKING',
      assetType: 'BTC',
      currency: 'USD',
      currencies: ['USD', 'EUR'],
      status: 'ACTIVE',
      kycStatus: 'APPROVED',
      beneficiaryVerificationStatus: 'PARTIAL_MATCH',
    };
    expect(box(shown)).toEqual(shown);
    // Codes: upper-case letters and underscores, starting with a letter, at most 40.
    for (const bad of ['usd', 'USD ', ' USD', 'US1', '_USD', 'DE89370400440532013000', 'A'.repeat(41), '', 'U-SD'])
      expect(box({ currency: bad }).currency, bad).toBe('[redacted]');
    expect(box({ status: 'A'.repeat(40) }).status).toBe('A'.repeat(40));
    expect(box({ status: 'A' }).status).toBe('A');
    // Ids: `Kind:value`.
    for (const bad of [
      'ada@example.org',
      'Customer:',
      ':1',
      'Customer:1 x',
      'x Customer:1',
      'Cust omer:1',
      'Customer:1:2',
      `${'C'.repeat(41)}:1`,
      `Customer:${'1'.repeat(81)}`,
      '1:1',
    ])
      expect(box({ id: bad }).id, bad).toBe('[redacted]');
    expect(box({ id: `${'C'.repeat(40)}:${'1'.repeat(80)}` }).id).toBe(`${'C'.repeat(40)}:${'1'.repeat(80)}`);
    // A code where an id belongs, an id where a code belongs, a number, an object: masked.
    expect(box({ id: 'ACTIVE', status: 'Customer:1', currency: 5, kycStatus: { x: 'APPROVED' } })).toEqual({
      id: '[redacted]',
      status: '[redacted]',
      currency: '[redacted]',
      kycStatus: { x: '[redacted]' },
    });
    // An object that looks like a list (a JSON object with a length) is not one.
    expect(box({ currency: { length: 1 } }).currency).toEqual({ length: '[redacted]' });
    expect(maskBody({ accountInfo: { x: undefined } })).toEqual({ accountInfo: { x: undefined } });
    // A list of codes: every element of the form, at most 64 of them.
    expect(box({ currencies: ['USD', 'eur'] }).currencies).toEqual(['[redacted]', '[redacted]']);
    expect(box({ currencies: Array(64).fill('USD') }).currencies).toEqual(Array(64).fill('USD'));
    expect(box({ currencies: Array(65).fill('USD') }).currencies).toEqual(Array(65).fill('[redacted]'));
    // The allow-list is a list of field names, not of values: a code under another name is masked.
    expect(box({ country: 'GB', region: 'GB', type: 'IBAN' })).toEqual({ country: '[redacted]', region: '[redacted]', type: '[redacted]' });
    // Allow-listed names under a masked name are masked (a name masked everywhere wins).
    expect(maskBody({ accountInfo: { iban: { status: 'ACTIVE' } } })).toEqual({ accountInfo: { iban: { status: 'ACTIVE' } } });
  });

  it('an object is personal data by its own accountType, customerType or beneficiaryType (a string); otherwise not', () => {
    for (const marker of ['accountType', 'customerType', 'beneficiaryType']) {
      expect(maskBody({ x: { [marker]: 'SOME_KIND', value: 'v' } }), marker).toEqual({ x: { [marker]: 'SOME_KIND', value: '[redacted]' } });
      expect(maskBody({ x: { [marker]: 5, value: 'v' } }), marker).toEqual({ x: { [marker]: 5, value: 'v' } });
      // Everything below it too, arrays included.
      expect(maskBody({ [marker]: 'K', list: [{ deep: ['v', 1] }] }), marker).toEqual({ [marker]: 'K', list: [{ deep: ['[redacted]', '[redacted]'] }] });
    }
  });

  it('32 levels are shown; from the 33rd everything is masked, objects and values alike', () => {
    const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { n: nest(levels - 1, leaf) });
    const leafAt = (value: unknown, levels: number): unknown => {
      let v = value;
      for (let i = 0; i < levels; i++) v = (v as { n: unknown }).n;
      return v;
    };
    expect(leafAt(maskBody(nest(32, 'visible')), 32)).toBe('visible');
    expect(leafAt(maskBody(nest(33, 'hidden')), 33)).toBe('[redacted]');
    expect(leafAt(maskBody(nest(33, { a: 1 })), 33)).toBe('[redacted]');
    expect(leafAt(maskBody(nest(32, [1])), 32)).toEqual(['[redacted]']);
    // The allow-list does not reach past the limit either.
    expect(leafAt(maskBody(nest(31, { accountInfo: { accountType: 'EUR_ACCOUNT' } })), 31)).toEqual({ accountInfo: { accountType: '[redacted]' } });
    expect(leafAt(maskBody(nest(30, { accountInfo: { accountType: 'EUR_ACCOUNT' } })), 30)).toEqual({ accountInfo: { accountType: 'EUR_ACCOUNT' } });
    expect(maskBody('text')).toBe('text');
    expect(maskBody(null)).toBeNull();
  });

  it('maskBodyText: nothing for no body, the masked JSON, or a summary of a text that is not JSON', () => {
    expect(maskBodyText(undefined)).toBeUndefined();
    expect(maskBodyText('')).toBeUndefined();
    expect(maskBodyText('{"iban":"DE89","amount":1}')).toEqual({ iban: '[redacted]', amount: 1 });
    expect(maskBodyText('name=Ada Lovelace')).toBe('[17 bytes, not JSON]');
  });
});

describe('the logger', () => {
  it('levels: each includes the ones above; off and no logger write nothing', () => {
    const order = ['error', 'warn', 'info', 'debug'] as const;
    for (const [i, level] of order.entries()) {
      const { lines, logger } = recorder();
      const log = new Log(logger, level);
      for (const at of order) log[at](`m-${at}`);
      expect(
        lines.map((l) => l.level),
        level,
      ).toEqual(order.slice(0, i + 1));
      for (const at of order) expect(log.enabled(at)).toBe(order.indexOf(at) <= i);
    }
    const { lines, logger } = recorder();
    new Log(logger, 'off').error('x');
    new Log(undefined, 'debug').error('x');
    expect(new Log(undefined, 'debug').enabled('error')).toBe(false);
    expect(lines).toEqual([]);
  });

  it('console order (message, details) for console-like loggers; (details, message) for pino and bunyan', () => {
    const calls: unknown[][] = [];
    const method = (...args: unknown[]) => calls.push(args);
    const consoleLike = { debug: method, info: method, warn: method, error: method };
    new Log(consoleLike, 'info').info('hello', () => ({ a: 1 }));
    new Log({ ...consoleLike, levels: { values: { info: 30 } } } as never, 'info').info('hello', () => ({ a: 2 }));
    new Log({ ...consoleLike, streams: [] } as never, 'info').info('hello', () => ({ a: 3 }));
    new Log({ ...consoleLike, levels: { values: null } } as never, 'info').info('hello', () => ({ a: 4 }));
    new Log({ ...consoleLike, levels: null } as never, 'info').info('hello', () => ({ a: 5 }));
    new Log({ ...consoleLike, streams: {} } as never, 'info').info('hello', () => ({ a: 6 }));
    new Log({ ...consoleLike, levels: { values: 'x' } } as never, 'info').info('hello', () => ({ a: 7 }));
    new Log(consoleLike, 'info').info('bare');
    expect(calls).toEqual([
      ['hello', { a: 1 }],
      [{ a: 2 }, 'hello'],
      [{ a: 3 }, 'hello'],
      ['hello', { a: 4 }],
      ['hello', { a: 5 }],
      ['hello', { a: 6 }],
      ['hello', { a: 7 }],
      ['bare'],
    ]);
  });

  it('a logger that throws or rejects changes nothing, and its rejection is handled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const throwing = {
        debug: () => {
          throw new Error('boom');
        },
        info: () => Promise.reject(new Error('async boom')),
        warn: () => undefined,
        error: () => undefined,
      };
      const log = new Log(throwing, 'debug');
      expect(() => log.debug('x', () => ({ a: 1 }))).not.toThrow();
      expect(() => log.info('x')).not.toThrow();
      expect(() =>
        log.info('x', () => {
          throw new Error('details boom');
        }),
      ).not.toThrow();
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(() => ignoreRejection(null)).not.toThrow();
    expect(() => ignoreRejection({ then: 5 })).not.toThrow();
    // A thenable gets a rejection handler; anything else is left alone.
    const handlers: unknown[][] = [];
    ignoreRejection({ then: (...args: unknown[]) => handlers.push(args) });
    expect(handlers).toHaveLength(1);
    expect(typeof handlers[0]![1]).toBe('function');
    const fnThenable = Object.assign(() => undefined, { then: () => handlers.push(['fn']) });
    ignoreRejection(fnThenable);
    expect(handlers).toHaveLength(1);
  });

  it('logFromOptions: the options first, else CROSSBORDER_LOG to the console; unknown levels are ignored', () => {
    const { logger } = recorder();
    expect(logFromOptions(logger, 'debug', 'error').enabled('debug')).toBe(true);
    expect(logFromOptions(logger, undefined, 'error').enabled('warn')).toBe(false);
    expect(logFromOptions(logger, undefined, 'error').enabled('error')).toBe(true);
    expect(logFromOptions(logger, undefined, undefined).enabled('warn')).toBe(true);
    expect(logFromOptions(logger, undefined, undefined).enabled('info')).toBe(false);
    expect(logFromOptions(logger, undefined, 'verbose').enabled('warn')).toBe(true);
    expect(logFromOptions(logger, undefined, 'verbose').enabled('info')).toBe(false);
    expect(logFromOptions(logger, undefined, 'toString').enabled('warn')).toBe(true);
    // No logger: the environment turns the console on; off or unset, nothing.
    expect(logFromOptions(undefined, undefined, 'info').enabled('info')).toBe(true);
    expect(logFromOptions(undefined, undefined, 'off').enabled('error')).toBe(false);
    expect(logFromOptions(undefined, undefined, undefined).enabled('error')).toBe(false);
    expect(logFromOptions(undefined, 'debug', undefined).enabled('error')).toBe(false);
    // An unknown CROSSBORDER_LOG value turns nothing on.
    expect(logFromOptions(undefined, undefined, 'verbose').enabled('error')).toBe(false);
    // The console is the default logger: it is the one written to.
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      logFromOptions(undefined, undefined, 'warn').warn('to the console');
      expect(spy).toHaveBeenCalledWith('to the console');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the secrets of the newer product areas', () => {
  it("are masked wherever they appear: a card's reveal URL and 3-D Secure password, a stablecoin provider's API secret", () => {
    const body = {
      panEmbedUrl: 'https://embed.example/iframe/c?t=0123456789abcdef',
      threeDSecurePassword: '3ds-pass',
      apiClientSecret: 'brale-secret',
      nested: [{ apiClientSecret: 'again' }],
      state: 'ACTIVE',
    };
    const masked = JSON.stringify(maskBody(body));
    for (const secret of ['0123456789abcdef', '3ds-pass', 'brale-secret', 'again']) expect(masked).not.toContain(secret);
    expect(masked).toContain('ACTIVE');
  });

  it("a `code` is masked unless it is a service's code: SCA one-time codes and device codes go, error and currency codes stay", () => {
    // One-time codes (contact verification, SMS, TOTP, a quote's authorization), in any case; a device code; a number.
    for (const code of ['123456', '0042', 'abc123', 'GRID-AGENT-X7K9-M2P4', 'Ab_C', 123456]) {
      expect(maskBody({ code, challengeId: 'ScaChallenge:1' }), String(code)).toEqual({ code: '[redacted]', challengeId: 'ScaChallenge:1' });
      expect(maskBody({ deviceCode: { code, redeemed: false } }), String(code)).toEqual({ deviceCode: { code: '[redacted]', redeemed: false } });
    }
    // A service's code: an error's, a currency's, a reason's (upper case, digits and underscores after the first letter).
    for (const code of ['INVALID_INPUT', 'USD', 'USDC', 'AGENT_ACTION_NOT_PENDING', 'E2E_FAILED', 'X']) {
      expect(maskBody({ status: 400, code, message: 'm' }), code).toEqual({ status: 400, code, message: 'm' });
      expect(maskBody({ balance: { currency: { code, decimals: 2 } } }), code).toEqual({ balance: { currency: { code, decimals: 2 } } });
    }
    // Null says nothing; another field holding digits is not a code.
    expect(maskBody({ code: null, amount: '123456' })).toEqual({ code: null, amount: '123456' });
  });
});
