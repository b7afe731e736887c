/**
 * Production's official CLI against our sandbox:
 * `npm run production:cli -- /path/to/grid-api [--json] [--timeout-ms 60000]`.
 *
 * Takes a checkout of lightsparkdev/grid-api by path (measured at cf2510ed; Apache-2.0, its code is never
 * copied here) and runs its `grid` CLI (`cli/src/index.ts`, through tsx, with `commander` from this
 * repository's node_modules) against the HTTP sandbox on 127.0.0.1, through a header-renaming proxy:
 * production's base path `/grid/2025-10-13` becomes ours (`/2025-10-13`), production's header names
 * become ours on the way in and ours become production's on the way out (openapi/production-map.json,
 * `headers`), and nothing else changes (the Host header names the sandbox, as any proxy's does).
 *
 * It seeds through the SDK the state each command needs (customers, one of them in an SCA region, funded
 * internal accounts, an external account, quotes, held incoming payments, a wallet credential, a card on the
 * wallet), then runs every `grid`
 * command whose operation (method and path) our openapi/openapi.yaml has, with the arguments a user
 * would give, each bounded by a timeout. A signed command runs as a user runs it: once without a
 * signature (the 202 challenge), then again with `--wallet-signature` and `--request-id` made by the
 * SDK's wallet session, for as long as it answers a challenge (bounded); a challenge left unsigned is a
 * failure. Prints one line per command (`ok` / `failed <status> <code>`), the summary
 * `N of M commands of operations we have work`, or all of it as JSON with `--json`. Exit code 0 when it
 * measured (whatever the figure), 2 on bad usage or a missing checkout. Not run by `npm test`: it needs
 * the checkout. docs/production.md ("Production's CLI against the sandbox") gives the figure.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Crossborder } from '../src/index';
import { createSandbox, MAGIC, type Sandbox } from '../src/sandbox/index';
import { createOtpLogin, generateClientKeyPair, LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY, type OtpLogin, type Signer } from '../src/wallet/index';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Production's base path and ours (the version segment is the same). */
export const PRODUCTION_BASE = '/grid/2025-10-13';
export const OUR_BASE = '/2025-10-13';

/** Our header name -> production's (openapi/production-map.json `headers`, without its `$comment`). */
export function productionHeaderNames(): Record<string, string> {
  const map = JSON.parse(readFileSync(join(root, 'openapi/production-map.json'), 'utf8')) as { headers: Record<string, string> };
  return Object.fromEntries(Object.entries(map.headers).filter(([k]) => !k.startsWith('$')));
}

/** One request that went through the proxy, with the status the upstream answered (0: no answer). */
export interface ProxiedRequest {
  method: string;
  /** The path and query as the client sent it (production's). */
  path: string;
  /** The path and query as forwarded (ours). */
  forwardedPath: string;
  status: number;
}

/** A running header-renaming proxy. */
export interface HeaderProxy {
  /** `http://127.0.0.1:<port>` (production's base path goes after it). */
  url: string;
  /** Every request forwarded, in order. */
  readonly log: readonly ProxiedRequest[];
  close(): Promise<void>;
}

/** Options of {@link startHeaderProxy}. */
export interface HeaderProxyOptions {
  /** The upstream origin, `http://127.0.0.1:<port>`. */
  upstream: string;
  /** Our header name -> production's. Default: {@link productionHeaderNames}. */
  headers?: Record<string, string>;
  /** Upper bound of one forwarded exchange, in ms (default 30,000): the client gets 504 after it. */
  timeoutMs?: number;
}

/**
 * Renames header names in a raw header list (`[name, value, name, value, …]`), comparing names without
 * case: a name in `renames` (lower-cased key) becomes its value, every other header is kept as sent.
 * Hop-by-hop headers (`connection`, `keep-alive`, `transfer-encoding`) are left to each leg.
 */
export function renameHeaders(raw: readonly string[], renames: Record<string, string>, drop: readonly string[] = []): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || drop.includes(lower)) continue;
    const renamed = renames[lower] ?? name;
    const prior = out[renamed];
    out[renamed] = prior === undefined ? raw[i + 1]! : Array.isArray(prior) ? [...prior, raw[i + 1]!] : [prior, raw[i + 1]!];
  }
  return out;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

/**
 * Starts the proxy on 127.0.0.1 (a free port): a request under production's base path
 * (`/grid/2025-10-13/…`) is forwarded under ours (`/2025-10-13/…`), any other path unchanged; request
 * header names production → ours, response header names ours → production; bodies, methods, status
 * codes and every other header pass unchanged. An upstream that cannot be reached or does not answer
 * within `timeoutMs` is 502/504 with a JSON body saying so.
 */
export async function startHeaderProxy(options: HeaderProxyOptions): Promise<HeaderProxy> {
  const names = options.headers ?? productionHeaderNames();
  const toOurs = Object.fromEntries(Object.entries(names).map(([ours, prod]) => [prod.toLowerCase(), ours]));
  const toProduction = Object.fromEntries(Object.entries(names).map(([ours, prod]) => [ours.toLowerCase(), prod]));
  const upstream = new URL(options.upstream);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log: ProxiedRequest[] = [];

  const server: Server = createServer((req: IncomingMessage, res) => {
    const path = req.url ?? '/';
    const forwardedPath =
      path === PRODUCTION_BASE || path.startsWith(`${PRODUCTION_BASE}/`) || path.startsWith(`${PRODUCTION_BASE}?`)
        ? OUR_BASE + path.slice(PRODUCTION_BASE.length)
        : path;
    const entry: ProxiedRequest = { method: req.method ?? 'GET', path, forwardedPath, status: 0 };
    log.push(entry);
    const headers = renameHeaders(req.rawHeaders, toOurs, ['host']);
    headers.host = upstream.host;
    const fail = (status: number, message: string) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, code: 'PROXY_ERROR', message }));
    };
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: forwardedPath, headers, timeout: timeoutMs },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, renameHeaders(answer.rawHeaders, toProduction));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    out.on('timeout', () => {
      out.destroy();
      fail(504, `the upstream did not answer within ${timeoutMs} ms`);
    });
    out.on('error', (error) => fail(502, `the upstream could not be reached: ${error.message}`));
    req.pipe(out);
    req.on('error', () => out.destroy());
  });
  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// The measurement.

/** The state the commands name, seeded through the SDK. */
interface State {
  customerId: string;
  /** A customer in an SCA region (Germany): the contact verification commands name it. */
  scaCustomerId: string;
  deleteCustomerId: string;
  accountId: string;
  /** The customer's USDC internal account (falls back to the USD one when the sandbox keeps none). */
  usdcAccountId: string;
  externalAccountId: string;
  quoteId: string;
  executeQuoteId: string;
  realtimeQuoteId: string;
  approveTransactionId: string;
  rejectTransactionId: string;
  umaAddress: string;
  walletId: string;
  /** A card of the wallet's holder funded by the wallet (the delegated key signs for it). */
  walletCardId: string;
  credentialId: string;
  /** Filled by `auth credentials create` and `auth delegated-keys create`. */
  addedCredentialId?: string;
  delegatedKeyId?: string;
  /** Filled by `cards create` and `tokens create`. */
  cardId?: string;
  tokenId?: string;
  otpBundle: string;
  /** The OTP login of `credentialId` (its code sealed, and the signer of the verify's 202 challenge). */
  otpLogin: OtpLogin;
  /** Filled by `auth credentials verify`: the session the later signed commands use. */
  sessionId?: string;
  signer?: Signer;
  clientPublicKey: string;
}

/** One `grid` command: its operation (production's method and path template) and a user's arguments. */
interface Command {
  name: string;
  method: string;
  path: string;
  args: (s: State) => string[];
  /** Signed: while a run answers a 202 challenge, run again with the signature of `signer`. */
  signed?: (s: State) => Signer | undefined;
  /** Runs before the command, on the sandbox (its clock). */
  before?: (sandbox: Sandbox) => Promise<unknown> | unknown;
  /** Runs after a successful command (reads its output into the state). */
  then?: (s: State, data: any) => Promise<void>;
}

const sessionSigner = (s: State) => s.signer;

/** The most signed retries of one command (production's delegated key takes two). */
const MAX_SIGNED_LEGS = 3;

/**
 * Every `grid` command of production's CLI at cf2510ed (`cli/src/commands/`: 68 commands, counting
 * `accounts … list --platform` apart) except `configure`, which writes the user's credentials file. The
 * product areas taken in beyond the spec (docs/production.md "Product areas beyond the spec") that the CLI
 * has commands for are `cards`, `tokens` and `discoveries`; it has none for stablecoins, documents, SCA
 * (besides the contact verification of `customers`) or agents. Run in this order: a command that consumes
 * state comes after those reading it.
 */
const COMMANDS: Command[] = [
  { name: 'config get', method: 'GET', path: '/config', args: () => ['config', 'get'] },
  { name: 'config update', method: 'PATCH', path: '/config', args: () => ['config', 'update', '--webhook-endpoint', 'https://example.com/webhooks'] },
  { name: 'customers list', method: 'GET', path: '/customers', args: () => ['customers', 'list', '--limit', '5', '--type', 'INDIVIDUAL'] },
  { name: 'customers get', method: 'GET', path: '/customers/{customerId}', args: (s) => ['customers', 'get', s.customerId] },
  {
    name: 'customers create',
    method: 'POST',
    path: '/customers',
    args: () => [
      'customers',
      'create',
      '--platform-id',
      'cli-user-1',
      '--type',
      'INDIVIDUAL',
      '--region',
      'US',
      '--currencies',
      'USD,MXN',
      '--email',
      'ada@example.com',
      '--full-name',
      'Ada Lovelace',
      '--birth-date',
      '1990-12-10',
      '--nationality',
      'GB',
      '--address-line1',
      '12 Analytical Way',
      '--address-city',
      'Austin',
      '--address-state',
      'TX',
      '--address-postal',
      '78701',
      '--address-country',
      'US',
    ],
  },
  {
    name: 'customers update',
    method: 'PATCH',
    path: '/customers/{customerId}',
    args: (s) => ['customers', 'update', s.customerId, '--type', 'INDIVIDUAL', '--full-name', 'Ada King'],
  },
  { name: 'customers kyc-link', method: 'POST', path: '/customers/{customerId}/kyc-link', args: (s) => ['customers', 'kyc-link', s.customerId] },
  { name: 'customers verify-email', method: 'POST', path: '/customers/{customerId}/verify-email', args: (s) => ['customers', 'verify-email', s.scaCustomerId] },
  {
    name: 'customers confirm-email',
    method: 'POST',
    path: '/customers/{customerId}/verify-email/confirm',
    args: (s) => ['customers', 'confirm-email', s.scaCustomerId, '--code', MAGIC.scaCode],
  },
  { name: 'customers verify-phone', method: 'POST', path: '/customers/{customerId}/verify-phone', args: (s) => ['customers', 'verify-phone', s.scaCustomerId] },
  {
    name: 'customers confirm-phone',
    method: 'POST',
    path: '/customers/{customerId}/verify-phone/confirm',
    args: (s) => ['customers', 'confirm-phone', s.scaCustomerId, '--code', MAGIC.scaCode],
  },
  {
    name: 'accounts internal list',
    method: 'GET',
    path: '/customers/internal-accounts',
    args: (s) => ['accounts', 'internal', 'list', '--customer-id', s.customerId, '--currency', 'USD'],
  },
  {
    name: 'accounts internal list --platform',
    method: 'GET',
    path: '/platform/internal-accounts',
    args: () => ['accounts', 'internal', 'list', '--platform', '--currency', 'USD'],
  },
  {
    name: 'accounts external list',
    method: 'GET',
    path: '/customers/external-accounts',
    args: (s) => ['accounts', 'external', 'list', '--customer-id', s.customerId],
  },
  { name: 'accounts external list --platform', method: 'GET', path: '/platform/external-accounts', args: () => ['accounts', 'external', 'list', '--platform'] },
  {
    name: 'accounts external create',
    method: 'POST',
    path: '/customers/external-accounts',
    args: (s) => [
      'accounts',
      'external',
      'create',
      '--customer-id',
      s.customerId,
      '--currency',
      'USD',
      '--account-type',
      'USD_ACCOUNT',
      '--account-number',
      '000987654321',
      '--routing-number',
      '021000021',
      '--bank-name',
      'Chase',
      '--beneficiary-type',
      'INDIVIDUAL',
      '--beneficiary-name',
      'Ada Lovelace',
    ],
  },
  {
    name: 'exchange-rates',
    method: 'GET',
    path: '/exchange-rates',
    args: () => ['exchange-rates', '--source-currency', 'USD', '--destination-currency', 'MXN'],
  },
  { name: 'quotes get', method: 'GET', path: '/quotes/{quoteId}', args: (s) => ['quotes', 'get', s.quoteId] },
  {
    name: 'quotes create',
    method: 'POST',
    path: '/quotes',
    args: (s) => [
      'quotes',
      'create',
      '--amount',
      '1000',
      '--lock-side',
      'SENDING',
      '--source-account',
      s.accountId,
      '--dest-account',
      s.externalAccountId,
      '--description',
      'Invoice 42',
    ],
  },
  { name: 'quotes execute', method: 'POST', path: '/quotes/{quoteId}/execute', args: (s) => ['quotes', 'execute', s.executeQuoteId] },
  { name: 'sandbox send', method: 'POST', path: '/sandbox/send', args: (s) => ['sandbox', 'send', '--quote-id', s.realtimeQuoteId, '--currency', 'USD'] },
  {
    name: 'sandbox receive',
    method: 'POST',
    path: '/sandbox/uma/receive',
    args: (s) => [
      'sandbox',
      'receive',
      '--sender-uma',
      '$success.usd@sandbox.uma.money',
      '--amount',
      '2500',
      '--currency',
      'USD',
      '--uma-address',
      s.umaAddress,
    ],
  },
  {
    name: 'sandbox fund',
    method: 'POST',
    path: '/sandbox/internal-accounts/{accountId}/fund',
    args: (s) => ['sandbox', 'fund', s.accountId, '--amount', '100000'],
  },
  {
    name: 'transfers in',
    method: 'POST',
    path: '/transfer-in',
    args: (s) => ['transfers', 'in', '--source', s.externalAccountId, '--dest', s.accountId, '--amount', '5000'],
  },
  {
    name: 'transfers out',
    method: 'POST',
    path: '/transfer-out',
    args: (s) => ['transfers', 'out', '--source', s.accountId, '--dest', s.externalAccountId, '--amount', '5000'],
  },
  { name: 'transactions list', method: 'GET', path: '/transactions', args: (s) => ['transactions', 'list', '--customer-id', s.customerId, '--limit', '5'] },
  { name: 'transactions get', method: 'GET', path: '/transactions/{transactionId}', args: (s) => ['transactions', 'get', s.approveTransactionId] },
  {
    name: 'transactions approve',
    method: 'POST',
    path: '/transactions/{transactionId}/approve',
    args: (s) => ['transactions', 'approve', s.approveTransactionId],
  },
  {
    name: 'transactions reject',
    method: 'POST',
    path: '/transactions/{transactionId}/reject',
    args: (s) => ['transactions', 'reject', s.rejectTransactionId, '--reason', 'Suspicious sender'],
  },
  {
    name: 'receiver lookup-uma',
    method: 'GET',
    path: '/receiver/uma/{receiverUmaAddress}',
    args: (s) => ['receiver', 'lookup-uma', '$success.usd@sandbox.uma.money', '--customer-id', s.customerId],
  },
  {
    name: 'receiver lookup-account',
    method: 'GET',
    path: '/receiver/external-account/{accountId}',
    args: (s) => ['receiver', 'lookup-account', s.externalAccountId, '--customer-id', s.customerId],
  },
  { name: 'uma-providers', method: 'GET', path: '/uma-providers', args: () => ['uma-providers', '--currency-code', 'USD', '--limit', '5'] },
  { name: 'discoveries', method: 'GET', path: '/discoveries', args: () => ['discoveries', '--country', 'MX', '--currency', 'MXN'] },
  {
    name: 'crypto estimate-fee',
    method: 'POST',
    path: '/crypto/estimate-withdrawal-fee',
    args: (s) => [
      'crypto',
      'estimate-fee',
      '--internal-account-id',
      s.usdcAccountId,
      '--currency',
      'USDC',
      '--crypto-network',
      'SOLANA',
      '--amount',
      '1000000',
      '--destination-address',
      '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    ],
  },
  // Cards: one issued to the customer (KYC approved), funded by its USD account, then read, revealed, frozen.
  {
    name: 'cards create',
    method: 'POST',
    path: '/cards',
    args: (s) => ['cards', 'create', '--cardholder-id', s.customerId, '--funding-sources', s.accountId, '--max-spend-per-transaction', '5000'],
    then: async (s, data) => void (s.cardId = data?.id),
  },
  { name: 'cards list', method: 'GET', path: '/cards', args: (s) => ['cards', 'list', '--cardholder-id', s.customerId, '--limit', '5'] },
  { name: 'cards get', method: 'GET', path: '/cards/{id}', args: (s) => ['cards', 'get', s.cardId ?? 'Card:unknown'] },
  { name: 'cards reveal', method: 'POST', path: '/cards/{id}/reveal', args: (s) => ['cards', 'reveal', s.cardId ?? 'Card:unknown'] },
  {
    name: 'cards update',
    method: 'PATCH',
    path: '/cards/{id}',
    args: (s) => ['cards', 'update', s.cardId ?? 'Card:unknown', '--state', 'FROZEN', '--max-spend-per-transaction', '2500'],
  },
  // API tokens: one created (its secret stays in the CLI's output, which is not printed), read, revoked.
  { name: 'tokens list', method: 'GET', path: '/tokens', args: () => ['tokens', 'list', '--limit', '5'] },
  {
    name: 'tokens create',
    method: 'POST',
    path: '/tokens',
    args: () => ['tokens', 'create', '--name', 'Reporting', '--permissions', 'VIEW'],
    then: async (s, data) => void (s.tokenId = data?.id),
  },
  { name: 'tokens get', method: 'GET', path: '/tokens/{tokenId}', args: (s) => ['tokens', 'get', s.tokenId ?? 'ApiToken:unknown'] },
  { name: 'tokens revoke', method: 'DELETE', path: '/tokens/{tokenId}', args: (s) => ['tokens', 'revoke', s.tokenId ?? 'ApiToken:unknown', '--yes'] },
  // The wallet: a credential's OTP login (verify, then its signed retry), then the signed commands.
  { name: 'auth credentials list', method: 'GET', path: '/auth/credentials', args: (s) => ['auth', 'credentials', 'list', '--account-id', s.walletId] },
  {
    name: 'auth credentials verify',
    method: 'POST',
    path: '/auth/credentials/{id}/verify',
    args: (s) => ['auth', 'credentials', 'verify', s.credentialId, '--type', 'EMAIL_OTP', '--encrypted-otp-bundle', s.otpBundle],
    signed: (s) => s.otpLogin?.signer,
    then: async (s, data) => {
      const session = await s.otpLogin.session(data, s.credentialId);
      s.signer = session.signer;
      s.sessionId = data?.id;
    },
  },
  {
    // A second credential on the wallet: signed by the session of the first (service-api.md, wallet rule 5).
    name: 'auth credentials create',
    method: 'POST',
    path: '/auth/credentials',
    args: (s) => ['auth', 'credentials', 'create', '--type', 'SMS_OTP', '--account-id', s.walletId],
    signed: sessionSigner,
    then: async (s, data) => void (s.addedCredentialId = data?.id),
  },
  { name: 'auth sessions list', method: 'GET', path: '/auth/sessions', args: (s) => ['auth', 'sessions', 'list', '--account-id', s.walletId] },
  {
    name: 'internal-accounts update',
    method: 'PATCH',
    path: '/internal-accounts/{accountId}',
    args: (s) => ['internal-accounts', 'update', s.walletId, '--private-enabled', 'true'],
    signed: sessionSigner,
  },
  {
    name: 'internal-accounts export',
    method: 'POST',
    path: '/internal-accounts/{accountId}/export',
    args: (s) => ['internal-accounts', 'export', s.walletId, '--client-public-key', s.clientPublicKey],
    signed: sessionSigner,
  },
  {
    // Production's delegated keys sign for a card: the wallet holder's card, funded by the wallet.
    name: 'auth delegated-keys create',
    method: 'POST',
    path: '/auth/delegated-keys',
    args: (s) => ['auth', 'delegated-keys', 'create', '--card-id', s.walletCardId, '--internal-account-id', s.walletId, '--nickname', 'checkout terminal'],
    signed: sessionSigner,
    then: async (s, data) => void (s.delegatedKeyId = data?.id),
  },
  {
    name: 'auth delegated-keys list',
    method: 'GET',
    path: '/auth/delegated-keys',
    args: (s) => ['auth', 'delegated-keys', 'list', '--account-id', s.walletId],
  },
  {
    name: 'auth delegated-keys get',
    method: 'GET',
    path: '/auth/delegated-keys/{delegatedKeyId}',
    args: (s) => ['auth', 'delegated-keys', 'get', s.delegatedKeyId ?? 'DelegatedKey:unknown'],
  },
  {
    name: 'auth delegated-keys revoke',
    method: 'DELETE',
    path: '/auth/delegated-keys/{delegatedKeyId}',
    args: (s) => ['auth', 'delegated-keys', 'revoke', s.delegatedKeyId ?? 'DelegatedKey:unknown', '--yes'],
  },
  {
    name: 'auth sessions refresh',
    method: 'POST',
    path: '/auth/sessions/{id}/refresh',
    args: (s) => ['auth', 'sessions', 'refresh', s.sessionId ?? 'Session:unknown', '--client-public-key', s.clientPublicKey],
    signed: sessionSigner,
  },
  {
    name: 'auth credentials challenge',
    method: 'POST',
    path: '/auth/credentials/{id}/challenge',
    args: (s) => ['auth', 'credentials', 'challenge', s.credentialId],
    // A credential's code can be re-sent once 30 s have passed: the sandbox's clock moves, nobody waits.
    before: (sandbox) => sandbox.clock.advance(31_000),
  },
  { name: 'customers delete', method: 'DELETE', path: '/customers/{customerId}', args: (s) => ['customers', 'delete', s.deleteCustomerId, '--yes'] },
  // The credential added above, revoked with the session of the other one (a credential cannot revoke itself).
  {
    name: 'auth credentials revoke',
    method: 'DELETE',
    path: '/auth/credentials/{id}',
    args: (s) => ['auth', 'credentials', 'revoke', s.addedCredentialId ?? 'AuthMethod:unknown', '--yes'],
    signed: sessionSigner,
  },
  {
    name: 'auth sessions revoke',
    method: 'DELETE',
    path: '/auth/sessions/{id}',
    args: (s) => ['auth', 'sessions', 'revoke', s.sessionId ?? 'Session:unknown', '--yes'],
    signed: sessionSigner,
  },
];

const ADDRESS = { line1: '12 Analytical Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' };
const PERSON = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', birthDate: '1990-12-10', nationality: 'GB', address: ADDRESS, region: 'US' } as const;

/** Seeds, through the SDK, the state the commands name (as test/sandbox/production-requests.test.ts does). */
async function seed(cb: Crossborder): Promise<State> {
  const first = <T>(page: { data: T[] }, what: string): T => {
    const item = page.data[0];
    if (item === undefined) throw new Error(`seeding: the sandbox has no ${what}`);
    return item;
  };
  const customer = await cb.customers.create({ ...PERSON, currencies: ['USD', 'MXN', 'EUR', 'USDC'] });
  const account = first(await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' }), 'USD account');
  await cb.sandbox.fundInternalAccount(account.id, { amount: 100_000_000 });
  const usdc = (await cb.internalAccounts.list({ customerId: customer.id, currency: 'USDC' })).data[0] ?? account;
  const external = await cb.externalAccounts.create({
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      accountCategory: 'CHECKING',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    },
  });
  const toBank = (amount: number) =>
    ({
      lockedCurrencyAmount: amount,
      lockedCurrencySide: 'SENDING',
      source: { sourceType: 'ACCOUNT', accountId: account.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
    }) as const;
  const quote = await cb.quotes.create(toBank(1_000));
  const executeQuote = await cb.quotes.create(toBank(2_000));
  // For `sandbox send` (a just-in-time funded quote): where the sandbox refuses it, that command says so.
  const realtime = await cb.quotes
    .create({ ...toBank(3_000), source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id } })
    .catch(() => ({ id: 'Quote:none' }));
  if (!customer.umaAddress) throw new Error('seeding: the customer has no UMA address');
  const held = () =>
    cb.sandbox.receiveUmaPayment({
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receiverUmaAddress: customer.umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
    });
  const approve = await held();
  const reject = await held();
  const sca = await cb.customers.create({
    ...PERSON,
    fullName: 'Emmy Noether',
    region: 'DE',
    address: { line1: 'Hauptstrasse 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
  });
  const doomed = await cb.customers.create({ ...PERSON, fullName: 'Charles Babbage' });
  const holder = await cb.customers.create({ ...PERSON, fullName: 'Grace Hopper' });
  const walletId = first(await cb.internalAccounts.list({ customerId: holder.id }), 'wallet').id;
  const credential = await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: walletId });
  const walletCard = await cb.cards.create({ cardholderId: holder.id, form: 'VIRTUAL', fundingSources: [walletId] });
  if (!('otpEncryptionTargetBundle' in credential) || typeof credential.otpEncryptionTargetBundle !== 'string') {
    throw new Error('seeding: the EMAIL_OTP credential came without an otpEncryptionTargetBundle');
  }
  const otpLogin = await createOtpLogin({
    otpEncryptionTargetBundle: credential.otpEncryptionTargetBundle,
    otpCode: '000000',
    signerPublicKey: LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY,
  });
  const exportKeys = await generateClientKeyPair();
  return {
    customerId: customer.id,
    scaCustomerId: sca.id,
    deleteCustomerId: doomed.id,
    accountId: account.id,
    usdcAccountId: usdc.id,
    externalAccountId: external.id,
    quoteId: quote.id,
    executeQuoteId: executeQuote.id,
    realtimeQuoteId: realtime.id,
    approveTransactionId: approve.id,
    rejectTransactionId: reject.id,
    umaAddress: customer.umaAddress,
    walletId,
    walletCardId: walletCard.id,
    credentialId: credential.id,
    otpBundle: otpLogin.encryptedOtpBundle,
    otpLogin,
    clientPublicKey: exportKeys.publicKey,
  };
}

/** The method and path templates of our openapi/openapi.yaml, with our base path's version stripped. */
function ourOperations(): Map<string, string> {
  const doc = parseYaml(readFileSync(join(root, 'openapi/openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const out = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op && typeof op === 'object' && op.operationId) out.set(`${method.toUpperCase()} ${normalise(path)}`, op.operationId);
    }
  }
  return out;
}

/** A path template with its parameter names erased (`/customers/{customerId}` -> `/customers/{}`). */
const normalise = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** What became of one command. */
export interface CommandOutcome {
  command: string;
  method: string;
  path: string;
  operationId: string;
  ok: boolean;
  /** `ok`, or `failed <status> <code>: <message>` (status 0: no answer; `exit n`: the CLI itself failed). */
  outcome: string;
  /** The HTTP statuses of the exchanges, in order (two for a signed command). */
  statuses: number[];
  /** Who is at fault, when known (FAULTS). */
  fault?: string;
}

/**
 * Failures explained, keyed by command: whose fault each is (the sandbox, the proxy or the CLI), found
 * by reading the CLI's code and production's document at cf2510ed. docs/production.md lists them.
 */
const FAULTS: Record<string, string> = {};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function runCli(checkout: string, baseUrl: string, args: string[], home: string, timeoutMs: number): Promise<Run> {
  const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
  const child = spawn(process.execPath, [tsx, join(checkout, 'cli/src/index.ts'), '--base-url', baseUrl, '--no-color', ...args], {
    cwd: home,
    env: {
      ...process.env,
      // The CLI's own dependency (commander) is this repository's; its credentials are the sandbox's (any).
      NODE_PATH: join(root, 'node_modules'),
      HOME: home,
      GRID_API_TOKEN_ID: 'tok_grid_cli',
      GRID_API_CLIENT_SECRET: 'sk_grid_cli',
      GRID_BASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const cap = 1 << 20;
  child.stdout.on('data', (c: Buffer) => void (stdout.length < cap && (stdout += c.toString())));
  child.stderr.on('data', (c: Buffer) => void (stderr.length < cap && (stderr += c.toString())));
  return new Promise((ok) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr, timedOut });
    });
  });
}

function parseOutput(stdout: string): { success?: boolean; data?: any; error?: { code?: string; message?: string } } | undefined {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

async function runCommand(
  command: Command,
  state: State,
  ctx: { checkout: string; proxy: HeaderProxy; home: string; timeoutMs: number },
  operationId: string,
): Promise<CommandOutcome> {
  const baseUrl = `${ctx.proxy.url}${PRODUCTION_BASE}`;
  const statuses: number[] = [];
  const exchange = async (args: string[]) => {
    const before = ctx.proxy.log.length;
    const run = await runCli(ctx.checkout, baseUrl, args, ctx.home, ctx.timeoutMs);
    statuses.push(...ctx.proxy.log.slice(before).map((e) => e.status));
    return { run, out: parseOutput(run.stdout) };
  };
  const result = (ok: boolean, outcome: string): CommandOutcome => ({
    command: command.name,
    method: command.method,
    path: command.path,
    operationId,
    ok,
    outcome,
    statuses,
    ...(ok || FAULTS[command.name] === undefined ? {} : { fault: FAULTS[command.name] }),
  });
  const failure = (run: Run, out: ReturnType<typeof parseOutput>) => {
    if (run.timedOut) return result(false, `failed timeout after ${ctx.timeoutMs} ms`);
    const status = statuses.at(-1);
    if (out?.error) return result(false, `failed ${status ?? 'no request'} ${out.error.code ?? ''}: ${out.error.message ?? ''}`.replace(/ {2}/, ' '));
    return result(false, `failed exit ${run.code}: ${(run.stderr || run.stdout).trim().split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
  };
  let { run, out } = await exchange(command.args(state));
  if (run.code !== 0 || out?.success !== true) return failure(run, out);
  // Each 202 challenge is signed on the "device" (the SDK's wallet session) and the same command run again
  // with the signature: once for most signed operations, twice for production's delegated key (its
  // user step, then its policy step). A challenge left unsigned is not a command that worked.
  const challengeOf = (data: any) =>
    statuses.at(-1) === 202 && typeof data?.payloadToSign === 'string' && typeof data?.requestId === 'string' ? data : undefined;
  for (let leg = 0; challengeOf(out.data) !== undefined; leg++) {
    const challenge = challengeOf(out.data);
    const signer = command.signed?.(state);
    if (!command.signed) return result(false, 'failed 202: a wallet challenge the command table does not sign');
    if (!signer) return result(false, 'failed 202: no wallet session to sign with (an earlier command failed)');
    if (leg === MAX_SIGNED_LEGS) return result(false, `failed 202: still a wallet challenge after ${MAX_SIGNED_LEGS} signed retries`);
    const signature = await signer(challenge);
    ({ run, out } = await exchange([...command.args(state), '--wallet-signature', signature, '--request-id', challenge.requestId]));
    if (run.code !== 0 || out?.success !== true) return failure(run, out);
  }
  try {
    await command.then?.(state, out.data);
  } catch (error) {
    return result(false, `failed reading its answer: ${(error as Error).message}`);
  }
  return result(true, 'ok');
}

function usage(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run production:cli -- /path/to/grid-api [--json] [--timeout-ms 60000]\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  let checkout: string | undefined;
  let json = false;
  let timeoutMs = 60_000;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--timeout-ms') {
      timeoutMs = Number(argv[++i]);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1_000) usage('--timeout-ms: expected an integer number of ms, at least 1000');
    } else if (arg.startsWith('-')) usage(`Unknown option ${arg}`);
    else if (checkout === undefined) checkout = resolve(arg);
    else usage(`Unexpected argument ${arg}`);
  }
  if (!checkout) usage('Missing the path of a grid-api checkout');
  if (!existsSync(join(checkout, 'cli/src/index.ts'))) usage(`${checkout}: no cli/src/index.ts (a checkout of lightsparkdev/grid-api is expected)`);

  const ours = ourOperations();
  const sandbox = createSandbox();
  const server = await sandbox.listen(0, '127.0.0.1');
  const proxy = await startHeaderProxy({ upstream: server.url });
  const home = mkdtempSync(join(tmpdir(), 'grid-cli-home-'));
  const outcomes: CommandOutcome[] = [];
  const skipped: string[] = [];
  try {
    const cb = new Crossborder({ tokenId: 'tok_seed', clientSecret: 'sk_seed', baseUrl: `${server.url}${OUR_BASE}`, maxRetries: 0 });
    const state = await seed(cb);
    for (const command of COMMANDS) {
      const operationId = ours.get(`${command.method} ${normalise(command.path)}`);
      if (!operationId) {
        skipped.push(command.name);
        continue;
      }
      await command.before?.(sandbox);
      const outcome = await runCommand(command, state, { checkout, proxy, home, timeoutMs }, operationId);
      outcomes.push(outcome);
      if (!json) process.stdout.write(`${outcome.command.padEnd(36)} ${outcome.outcome}${outcome.fault ? `  [${outcome.fault}]` : ''}\n`);
    }
  } finally {
    await proxy.close();
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
  const working = outcomes.filter((o) => o.ok).length;
  const summary = `${working} of ${outcomes.length} commands of operations we have work`;
  if (json) {
    process.stdout.write(`${JSON.stringify({ checkout, working, commands: outcomes.length, summary, outcomes, notOurs: skipped }, null, 2)}\n`);
  } else {
    process.stdout.write(`${summary}\n(${skipped.length} commands of operations we do not have: ${skipped.join(', ')})\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
