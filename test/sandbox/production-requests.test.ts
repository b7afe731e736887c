/**
 * Production's request examples, sent through the SDK to the sandbox (issue 34, sections 2 and 4): those of
 * its docs site (`test/fixtures/production/docs-requests.json`, read by `scripts/production-examples.ts` from
 * lightsparkdev/grid-api at cf2510ed, Apache-2.0) and those of its document (`shared/production/openapi.yaml`
 * beside the project; skipped where it is absent).
 *
 * Each example of an operation we have is sent through `CrossborderCore` (the SDK's own local checks) to a
 * fresh in-process sandbox, after the state it names is made: the ids it quotes (`Customer:…`,
 * `InternalAccount:…`, `ExternalAccount:…`, `Lookup:…`) become resources of the sandbox of that kind, and an
 * inviter's or receiver's UMA address becomes a customer's. What is then refused is listed below with why;
 * everything else must be accepted. An example that changes outcome fails the test, either way.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CrossborderCore, type Operation } from '../../src/core/client';
import { requestChecks, responseChecks } from '../../src/core/parts';
import { APIError, SignatureRequiredError, ValidationError } from '../../src/core/errors';
import * as operations from '../../src/generated/operations';
import { createSandbox, MAGIC, type Sandbox } from '../../src/sandbox/index';
import { productionDocument, productionDocumentPath } from '../helpers/production-document';
import { accountOf, caller, createCustomer, fund, usdBank, type Call } from './helpers';

interface Example {
  /** `docs <file>:<line>` or `document <operationId> <name>`. */
  source: string;
  method: string;
  /** Production's path template, and the path as the example writes it. */
  operation: string;
  path: string;
  body?: unknown;
  placeholder?: string;
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/production/docs-requests.json', import.meta.url), 'utf8')) as {
  commit: string;
  examples: Array<Omit<Example, 'source'> & { file: string; line: number }>;
};
const docsExamples: Example[] = fixture.examples.map(({ file, line, ...rest }) => ({ source: `docs ${file.replace(/^mintlify\//, '')}:${line}`, ...rest }));

function documentExamples(): Example[] {
  const out: Example[] = [];
  for (const [path, item] of Object.entries<any>(productionDocument().paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const examples = op?.requestBody?.content?.['application/json']?.examples ?? {};
      for (const [name, example] of Object.entries<any>(examples)) {
        out.push({ source: `document ${op.operationId} ${name}`, method: method.toUpperCase(), operation: path, path, body: example.value });
      }
    }
  }
  return out;
}

const OPERATIONS = (Object.values(operations) as unknown[]).filter((o): o is Operation => typeof o === 'object' && o !== null && 'method' in o && 'path' in o);
const ours = (e: Example) => OPERATIONS.find((o) => o.method === e.method && o.path === e.operation);

/**
 * What the sandbox refuses, and why: production's docs contradicting its own document (the sandbox follows
 * the document: docs/production.md lists them), or state only production has (a held payment, a credential
 * registered on a device). Keyed by source; the value is the refusal's code.
 */
const CONTRADICTS = "production's docs contradict its document, which the sandbox follows (docs/production.md)";
const PAYER_DATA =
  "the receiver's institution asks for the payer's FULL_NAME, which the document says MUST then be sent (senderCustomerInfo); the example has none";
const CREDENTIAL = 'needs a credential registered on a device, and a code or signature made for it';
const REFUSED: Record<string, { code: string; why: string }> = {
  'docs global-p2p/quickstart.mdx:81': { code: 'INVALID_INPUT', why: `accountType CLABE: ${CONTRADICTS}` },
  'docs payouts-and-b2b/quickstart.mdx:238': { code: 'INVALID_INPUT', why: `accountType CLABE: ${CONTRADICTS}` },
  'docs ramps/platform-tools/sandbox-testing.mdx:201': { code: 'INVALID_INPUT', why: `accountType US_ACCOUNT: ${CONTRADICTS}` },
  'docs ramps/platform-tools/sandbox-testing.mdx:305': { code: 'INVALID_INPUT', why: `accountType US_ACCOUNT: ${CONTRADICTS}` },
  'docs global-p2p/sending-receiving-payments/receiving-payments.mdx:189': { code: 'INVALID_INPUT', why: `accountType US_ACCOUNT: ${CONTRADICTS}` },
  'docs snippets/external-accounts.mdx:768': { code: 'INVALID_INPUT', why: `XOF_ACCOUNT without region: ${CONTRADICTS}` },
  'docs global-p2p/quickstart.mdx:141': { code: 'INVALID_INPUT', why: `USDC funding without cryptoNetwork: ${CONTRADICTS}` },
  'docs snippets/sending/cross-currency.mdx:194': { code: 'INVALID_INPUT', why: `USDC funding without cryptoNetwork: ${CONTRADICTS}` },
  'docs snippets/creating-customers/customers.mdx:232': { code: 'INVALID_INPUT', why: `a customer update without customerType: ${CONTRADICTS}` },
  'docs global-p2p/onboarding/invitations.mdx:36': {
    code: 'INVALID_INPUT',
    why: 'its expiresAt (2024-12-31) has passed; production refuses a past expiry too',
  },
  'docs global-p2p/onboarding/invitations.mdx:69': {
    code: 'INVALID_INPUT',
    why: 'its expiresAt (2024-12-31) has passed; production refuses a past expiry too',
  },
  'document createAuthCredential oauth': { code: 'UNAUTHORIZED', why: 'its identity token was issued in 2025 and has expired; production verifies it too' },
  'docs snippets/sending/uma.mdx:64': { code: 'INVALID_INPUT', why: PAYER_DATA },
  'document createQuote accountToUma': { code: 'INVALID_INPUT', why: PAYER_DATA },
  'docs global-p2p/platform-tools/sandbox-testing.mdx:69': { code: 'INVALID_INPUT', why: PAYER_DATA },
  'docs global-p2p/platform-tools/sandbox-testing.mdx:173': { code: 'INVALID_INPUT', why: PAYER_DATA },
  'document refreshAuthSession refresh': {
    code: 'SESSION_NOT_FOUND',
    why: 'needs a session made on a device (a verified credential), and its key to sign the refresh',
  },
  'docs snippets/sandbox-global-account-magic.mdx:21': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'docs snippets/sandbox-global-account-magic.mdx:30': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document challengeAuthCredential emailOtp': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document challengeAuthCredential passkey': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document challengeAuthCredential smsOtp': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document verifyAuthCredential emailOtp': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document verifyAuthCredential emailOtpSignedRetry': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document verifyAuthCredential oauth': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document verifyAuthCredential passkey': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
  'document verifyAuthCredential smsOtp': { code: 'CREDENTIAL_NOT_FOUND', why: CREDENTIAL },
};

/**
 * Examples the SDK does not send, refused by its own local checks before any request: their values are
 * elided in the docs (`04f45f2a...`, `...`) or spliced from shell variables (`$PUBLIC_KEY`), and the spec
 * states the form those values take.
 */
const NOT_SENT: Record<string, string> = {
  'docs snippets/sandbox-global-account-magic.mdx:69': 'clientPublicKey', // "04f45f2a..."
  'docs snippets/sandbox-global-account-magic.mdx:77': 'assertion.credentialId', // "..."
  'docs snippets/sandbox-global-account-magic.mdx:137': 'clientPublicKey', // "$PUBLIC_KEY"
};

/** Wallet operations whose example the service answers with its 202 challenge (signed by the device next). */
const CHALLENGED = ['document createDelegatedKey create'];

const ID = /^(Customer|InternalAccount|ExternalAccount|LookupRequest|Lookup|Transaction|Quote|Card|CardTransaction):/;

/** The sandbox's resources an example names, made before it is sent. */
async function stateFor(call: Call, example: Example, sandbox: Sandbox) {
  const customer = await createCustomer(call, { currencies: ['USD', 'MXN', 'EUR', 'BTC', 'USDC'] });
  // The account the example spends from: in USDC when it withdraws USDC, else in USD.
  const account = await accountOf(call, customer.id, /"currency":"USDC"/.test(JSON.stringify(example.body ?? {})) ? 'USDC' : 'USD');
  await fund(call, account.id, 100_000_000);
  const external = await usdBank(call, customer.id);
  const text = JSON.stringify(example.body ?? {});
  // A beneficial owner belongs to a business.
  const owner =
    example.operation === '/beneficial-owners'
      ? (
          await call('POST', '/customers', {
            customerType: 'BUSINESS',
            businessInfo: { legalName: 'Acme Corporation', country: 'US', taxId: '12-3456789', incorporatedOn: '2018-03-14' },
          })
        ).body
      : undefined;
  for (const field of ['inviterUma', 'receiverUmaAddress']) {
    const uma = new RegExp(`"${field}":"(\\$[^"]+)"`).exec(text)?.[1];
    if (uma) await createCustomer(call, { umaAddress: uma, fullName: 'Uma Holder' });
  }
  let lookup: string | undefined;
  const destination = /"umaAddress":"(\$[^"]+)"/.exec(text)?.[1];
  if (/"Lookup(Request)?:/.test(text) && destination) {
    const res = await call('GET', `/receiver/uma/${encodeURIComponent(destination)}?customerId=${encodeURIComponent(customer.id)}`);
    if (res.status === 200) lookup = res.body.lookupId;
  }
  let held: string | undefined;
  if (example.path.includes('/Transaction:') || example.path.includes('{transactionId}')) {
    // An incoming payment held for approval: the sandbox's magic amount (src/sandbox/domain/magic.ts).
    await createCustomer(call, { umaAddress: '$held.payee@sandbox.test', fullName: 'Held Payee' });
    const res = await call('POST', '/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      receiverUmaAddress: '$held.payee@sandbox.test',
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: MAGIC.holdForApprovalAmount,
    });
    held = res.body?.id;
  }
  let quote: string | undefined;
  if (example.operation === '/quotes/{quoteId}/authorize') {
    // A payment of an SCA customer (an EEA region) held for its authorization, and the customer's SCA login:
    // the authorization the example sends releases it (the sandbox's code is 123456, as production's).
    const eu = await createCustomer(call, { region: 'FR', currencies: ['EUR'], fullName: 'Marie Curie' });
    const eur = await accountOf(call, eu.id, 'EUR');
    await fund(call, eur.id, 100_000);
    const payee = await call('POST', '/customers/external-accounts', {
      customerId: eu.id,
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'DEUTDEFF' },
    });
    const made = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: eur.id },
      destination: { destinationType: 'ACCOUNT', accountId: payee.body.id, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    quote = made.body?.id;
    await call('POST', `/quotes/${encodeURIComponent(quote!)}/execute`);
    const q = `?customerId=${encodeURIComponent(eu.id)}`;
    await call('POST', `/customers/${encodeURIComponent(eu.id)}/verify-phone`);
    await call('POST', `/customers/${encodeURIComponent(eu.id)}/verify-phone/confirm`, { code: MAGIC.scaCode });
    const login = await call('POST', `/sca/login/start${q}`, { factor: 'SMS_OTP' });
    await call('POST', `/sca/login/complete${q}`, {
      factor: 'SMS_OTP',
      challengeId: login.body.challengeId,
      code: MAGIC.scaCode,
      endUserIpAddress: '203.0.113.42',
    });
  } else if (text.includes('"Quote:')) {
    // A just-in-time quote of the customer, funded in the example's currency (`sandbox send` pays it).
    const currency = /"currencyCode":"([A-Z]+)"/.exec(text)?.[1] ?? 'USD';
    const res = await call('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency, customerId: customer.id, ...(currency === 'USDC' ? { cryptoNetwork: 'SOLANA_MAINNET' } : {}) },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: currency === 'USDC' ? 10_000_000 : 10_000, // above the fees (USDC has 6 decimals)
    });
    quote = res.body?.id;
  }
  let invitation: string | undefined;
  if (example.operation.startsWith('/invitations/{invitationCode}')) {
    const res = await call('POST', '/invitations', { inviterUma: customer.umaAddress });
    invitation = res.body?.code;
  }
  // A card of the customer's, provisioned (the next request sees it ACTIVE), and the card transaction a
  // simulation names: open for a clearing or an advice, settled for a return, refunded for a return reversal.
  let card: string | undefined;
  let cardTransaction: string | undefined;
  if (/^\/(sandbox\/)?cards\/\{id\}/.test(example.operation)) {
    card = (await call('POST', '/cards', { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [account.id] })).body.id as string;
    const at = `/sandbox/cards/${encodeURIComponent(card)}/simulate`;
    if (text.includes('"CardTransaction:')) {
      const settled = example.operation.includes('/simulate/return');
      await call('POST', `${at}/${settled ? 'financial_authorization' : 'authorization'}`, {
        amount: 5_000,
        currency: { code: 'USD' },
        merchant: { descriptor: 'SETUP' },
      });
      cardTransaction = sandbox.state.snapshot().cardTransactions[0]?.id;
      if (example.operation.endsWith('/return_reversal')) await call('POST', `${at}/return`, { cardTransactionId: cardTransaction, amount: 5_000 });
    }
  }
  // The agent's own operations (`/agents/me/…`) are called with an agent's credential: an agent of the
  // customer, its device code redeemed, under a policy that lets the example's transfer run at once.
  let agentToken: string | undefined;
  if (example.operation.startsWith('/agents/me')) {
    const created = await call('POST', '/agents', {
      name: 'Example agent',
      customerId: customer.id,
      policy: {
        permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000 },
      },
    });
    agentToken = (await call('POST', `/agents/device-codes/${encodeURIComponent(created.body.deviceCode.code)}/redeem`)).body.accessToken as string;
  }
  const ids: Record<string, string | undefined> = {
    Card: card,
    CardTransaction: cardTransaction,
    Quote: quote,
    Invitation: invitation,
    Customer: owner?.id ?? customer.id,
    InternalAccount: account.id,
    ExternalAccount: external.id,
    Lookup: lookup,
    LookupRequest: lookup,
    Transaction: held,
  };
  const swap = (value: string, name?: string): string => {
    const kind =
      ID.exec(value)?.[1] ??
      (name === 'invitationCode'
        ? 'Invitation'
        : name === 'transactionId'
          ? 'Transaction'
          : name === 'id' && card
            ? 'Card'
            : name && /customerId/i.test(name)
              ? 'Customer'
              : name && /accountId/i.test(name)
                ? 'InternalAccount'
                : undefined);
    return (kind && ids[kind]) ?? value;
  };
  return Object.assign(swap, { agentToken });
}

function swapIds(value: unknown, swap: (v: string) => string): unknown {
  if (typeof value === 'string') return swap(value);
  if (Array.isArray(value)) return value.map((v) => swapIds(v, swap));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swapIds(v, swap)]));
  return value;
}

/** `accepted`, `refused <code>` or `not sent <field>`: what became of one example. */
async function outcomeOf(example: Example, op: Operation): Promise<string> {
  const sandbox = createSandbox();
  try {
    const call = caller((input, init) => sandbox.fetch(input, init));
    const swap = await stateFor(call, example, sandbox);
    const path: Record<string, string> = {};
    const written = example.path.split('/');
    example.operation.split('/').forEach((part, i) => {
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name) path[name] = swap(decodeURIComponent(written[i]!), name);
    });
    const core = new CrossborderCore(
      {
        ...(swap.agentToken === undefined ? { tokenId: 'tok_test', clientSecret: 'sk_test' } : { agentToken: swap.agentToken }),
        baseUrl: 'http://sandbox.test/2025-10-13',
        fetch: (input, init) => sandbox.fetch(input, init),
        maxRetries: 0,
      },
      { requestChecks, responseChecks }, // the SDK's local checks, as on Crossborder
    );
    await core.call(op, { path, body: swapIds(example.body, swap) });
    return 'accepted';
  } catch (error) {
    if (error instanceof ValidationError) return `not sent ${error.issues[0]?.path ?? ''}`;
    // The first leg of a wallet operation: answered, as production answers it, with the challenge to sign.
    if (error instanceof SignatureRequiredError) return 'challenged';
    if (error instanceof APIError) return `refused ${error.code ?? error.status}`;
    throw error;
  } finally {
    void sandbox.close();
  }
}

async function measure(examples: Example[]) {
  const outcomes: Record<string, string> = {};
  for (const example of examples) {
    const op = ours(example);
    if (!op || example.placeholder !== undefined) continue;
    outcomes[example.source] = await outcomeOf(example, op);
  }
  return outcomes;
}

/** Counts as docs/production.md gives them. */
function summary(outcomes: Record<string, string>) {
  const values = Object.values(outcomes);
  return {
    examples: values.length,
    sent: values.filter((v) => !v.startsWith('not sent')).length,
    accepted: values.filter((v) => v === 'accepted' || v === 'challenged').length,
  };
}

/** The figures docs/production.md states ("The sandbox against production's requests"). */
const DOCS_SUMMARY = { examples: 167, sent: 164, accepted: 148 };
const DOCUMENT_SUMMARY = { examples: 59, sent: 59, accepted: 48 };

function expectedOf(outcomes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(outcomes).map((source) => [
      source,
      NOT_SENT[source] !== undefined
        ? `not sent ${NOT_SENT[source]}`
        : REFUSED[source]
          ? `refused ${REFUSED[source].code}`
          : CHALLENGED.includes(source)
            ? 'challenged'
            : 'accepted',
    ]),
  );
}

describe("production's request examples, through the SDK to the sandbox", () => {
  it(`the docs site's (grid-api ${fixture.commit.slice(0, 8)})`, async () => {
    const outcomes = await measure(docsExamples);
    expect(outcomes).toEqual(expectedOf(outcomes));
    expect(summary(outcomes)).toEqual(DOCS_SUMMARY);
  }, 120_000);

  it.skipIf(productionDocumentPath() === undefined)(
    "the document's",
    async () => {
      const outcomes = await measure(documentExamples());
      expect(outcomes).toEqual(expectedOf(outcomes));
      expect(summary(outcomes)).toEqual(DOCUMENT_SUMMARY);
    },
    120_000,
  );
});
