/**
 * The evolving service (issue #14.6): the service adds fields, enum values, variants, and leaves
 * fields out. Property tests take every 2xx response example of the document, change it the way a
 * growing service would, and check that the SDK never throws for it (with and without
 * `validateResponses`) and hands back the values as sent. Requests: values of open sets the SDK does
 * not know and ids of any shape are sent as given.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Crossborder } from '../../src/client';
import { WebhookVerificationError } from '../../src/core/errors';
import { generateWebhookKeyPair, signWebhook } from '../../src/webhooks/sign';
import { operations, type OperationId } from '../../src/generated/operations';
import { deref, doc, requestExample } from '../helpers/document';
import { METHODS, validInput } from '../reliability/methods';

const SEED = 20251013;
const RUNS = Number(process.env.EVOLVING_RUNS ?? 40);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Mutation = 'add-field' | 'unknown-enum' | 'drop-field' | 'null-field';

/** Every 2xx example (not a 202 challenge, not a 204) of every operation, with its status. */
function successExamples(): { id: OperationId; status: number; body: Json }[] {
  const out: { id: OperationId; status: number; body: Json }[] = [];

  for (const item of Object.values<Record<string, any>>(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op?.operationId || !(op.operationId in operations)) continue;

      for (const [status, raw] of Object.entries<any>(op.responses ?? {})) {
        if (!/^2\d\d$/.test(status) || status === '202' || status === '204') continue;
        const media = deref(raw)?.content?.['application/json'];
        const examples: Json[] =
          media?.example !== undefined
            ? [media.example]
            : Object.values(media?.examples ?? {})
                .map((e) => deref(e)?.value)
                .filter((v) => v !== undefined);
        for (const body of examples) out.push({ id: op.operationId as OperationId, status: Number(status), body });
      }
    }
  }
  return out;
}

/** Paths of every object property in a JSON value (not array indexes themselves). */
function fieldPaths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => fieldPaths(v, [...prefix, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...fieldPaths(v, [...prefix, k])]);
}

function objectPaths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...prefix, i]));
  if (value === null || typeof value !== 'object') return [];
  return [prefix, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...prefix, k]))];
}

const ENUM_LIKE = /^[A-Z][A-Z0-9_.]{2,}$/;

/** Applies one mutation at a position chosen by `pick` (0..1). The top-level list envelope keeps its `data`. */
function mutate(body: Json, kind: Mutation, pick: number, n: number): Json {
  const copy = structuredClone<Json>(body);
  const at = (path: (string | number)[]) => path.reduce<Json>((node, k) => (node as Record<string, Json>)[k as string]!, copy);
  const choose = <T>(list: T[]) => list[Math.min(list.length - 1, Math.floor(pick * list.length))];
  const keep = (p: (string | number)[]) => !(p.length === 1 && p[0] === 'data');
  switch (kind) {
    case 'add-field': {
      const target = choose(objectPaths(copy));
      if (target) (at(target) as Record<string, Json>)[`futureField${n}`] = { addedLater: true, n };
      break;
    }
    case 'unknown-enum': {
      const target = choose(fieldPaths(copy).filter((p) => typeof at(p) === 'string' && ENUM_LIKE.test(at(p) as string)));
      if (target) (at(target.slice(0, -1)) as Record<string, Json>)[target[target.length - 1] as string] = `FUTURE_VALUE_${n}`;
      break;
    }
    case 'drop-field':
    case 'null-field': {
      const target = choose(fieldPaths(copy).filter((p) => keep(p) && typeof p[p.length - 1] === 'string'));
      if (target) {
        const parent = at(target.slice(0, -1)) as Record<string, Json>;
        const key = target[target.length - 1] as string;
        if (kind === 'drop-field') delete parent[key];
        else parent[key] = null;
      }
      break;
    }
  }
  return copy;
}

/** The value a method resolves to, for comparison: a page's items, or the result itself. */
async function settle(result: PromiseLike<unknown>): Promise<unknown> {
  const value = (await result) as { data?: unknown } | undefined;
  return value !== null && typeof value === 'object' && value.constructor?.name === 'Page' ? { data: value.data } : value;
}

const examples = successExamples();
const mutations = fc.array(
  fc.tuple(fc.constantFrom<Mutation>('add-field', 'unknown-enum', 'drop-field', 'null-field'), fc.double({ min: 0, max: 1, noNaN: true })),
  { minLength: 1, maxLength: 4 },
);

describe('the evolving service: answers', () => {
  it('has a 2xx example for most operations', () => {
    expect(new Set(examples.map((e) => e.id)).size).toBeGreaterThanOrEqual(25);
  });

  for (const validate of [false, true]) {
    it(`every 2xx example, grown, shrunk and nulled: resolves with the values as sent (validateResponses: ${validate}; ${RUNS} cases per example)`, async () => {
      const counts = { cases: 0, reports: 0 };
      for (const example of examples) {
        await fc.assert(
          fc.asyncProperty(mutations, validInput(example.id), async (steps, input) => {
            let body = example.body;
            steps.forEach(([kind, pick], n) => (body = mutate(body, kind, pick, n)));
            const reports: unknown[] = [];
            const cb = new Crossborder({
              tokenId: 't',
              clientSecret: 's',
              baseUrl: 'https://api.test.invalid',
              environment: 'sandbox',
              maxRetries: 0,
              validateResponses: validate,
              onValidationIssue: (r) => reports.push(r),
              fetch: async () => new Response(JSON.stringify(body), { status: example.status, headers: { 'content-type': 'application/json' } }),
            });
            // Relay-mode options would make this the second leg of a signed call: not what is tested here.
            const options = { ...input.options, signature: undefined, requestId: example.id === 'verifyCredential' ? 'pk-1' : undefined };
            const value = await settle(METHODS[example.id](cb, { ...input, options }));
            const expected =
              body !== null && typeof body === 'object' && !Array.isArray(body) && 'hasMore' in (example.body as object)
                ? { data: (body as { data: Json }).data }
                : body;
            expect(value).toEqual(expected);
            counts.cases++;
            counts.reports += reports.length;
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }

      console.log(`[open-world] answers: ${counts.cases} cases over ${examples.length} examples, ${counts.reports} drift reports`);
      if (validate) expect(counts.reports).toBeGreaterThan(0);
    }, 300_000);
  }
});

describe('the evolving service: requests', () => {
  /** A client whose fetch records what went out (method, path decoded, query, parsed body) and answers a plausible 2xx. */
  function recorder() {
    const sent: { method: string; path: string; query: Record<string, string>; body: unknown }[] = [];
    const cb = new Crossborder({
      tokenId: 't',
      clientSecret: 's',
      baseUrl: 'https://api.test.invalid',
      fetch: async (input, init) => {
        const url = new URL(String(input));
        sent.push({
          method: String(init.method),
          path: decodeURIComponent(url.pathname.replace(/^\/2025-10-13/, '')),
          query: Object.fromEntries(url.searchParams),
          body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
        });
        const answer = init.method === 'GET' ? { data: [], hasMore: false, totalCount: 0 } : { id: 'X:1', status: 'PENDING' };
        return new Response(JSON.stringify(answer), { status: init.method === 'GET' ? 200 : 201, headers: { 'content-type': 'application/json' } });
      },
    });
    return { cb, sent };
  }
  const anyId = fc
    .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/), fc.constantFrom(':', '_', '-', '', '/', ' '), fc.stringMatching(/^[A-Za-z0-9-]{1,24}$/))
    .map((parts) => parts.join(''));
  const unknownValue = fc.stringMatching(/^[A-Z][A-Z0-9_]{2,20}$/);

  it(`ids of any shape and open-set values the SDK does not know are sent as given, in bodies, paths and queries (${RUNS * 5} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        anyId,
        anyId,
        anyId,
        unknownValue,
        unknownValue,
        unknownValue,
        async (source, destination, wallet, purpose, accountType, credentialType) => {
          const { cb, sent } = recorder();
          const quote = {
            ...requestExample('createQuote'),
            source: { sourceType: 'ACCOUNT', accountId: source },
            destination: { destinationType: 'ACCOUNT', accountId: destination },
            purposeOfPayment: purpose,
          };
          await cb.quotes.create(quote);
          await cb.auth.credentials.create({ type: 'EMAIL_OTP', accountId: wallet });
          // A credential type and an account type the SDK does not know: checked for the fields every variant has, then sent.
          const credential = { type: credentialType, accountId: wallet, someNewField: { nested: true } };
          await cb.auth.credentials.create(credential);
          const verify = { type: credentialType, clientPublicKey: `04${'ab'.repeat(64)}`, someNewProof: 'p' };
          await cb.auth.credentials.verify(destination, verify);
          const account = { currency: 'XYZ', customerId: source, accountInfo: { accountType, someNewField: 'v' } };
          await cb.externalAccounts.create(account);
          await cb.transactions.list({ status: purpose, customerId: source });
          await cb.customers.retrieve(source);
          await cb.quotes.execute(destination);
          await cb.transactions.reject(wallet, {});
          expect(sent).toEqual([
            { method: 'POST', path: '/quotes', query: {}, body: quote },
            { method: 'POST', path: '/auth/credentials', query: {}, body: { type: 'EMAIL_OTP', accountId: wallet } },
            { method: 'POST', path: '/auth/credentials', query: {}, body: credential },
            { method: 'POST', path: `/auth/credentials/${destination}/verify`, query: {}, body: verify },
            { method: 'POST', path: '/customers/external-accounts', query: {}, body: account },
            { method: 'GET', path: '/transactions', query: { status: purpose, customerId: source }, body: undefined },
            { method: 'GET', path: `/customers/${source}`, query: {}, body: undefined },
            { method: 'POST', path: `/quotes/${destination}/execute`, query: {}, body: undefined },
            { method: 'POST', path: `/transactions/${wallet}/reject`, query: {}, body: {} },
          ]);
        },
      ),
      { numRuns: RUNS * 5, seed: SEED },
    );
  });

  it('an unknown variant is still checked for what every variant has, naming the field', async () => {
    const { cb, sent } = recorder();
    await expect(cb.auth.credentials.create({ type: 'WEBAUTHN_V2' } as never)).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('accountId'),
    });
    await expect(
      cb.externalAccounts.create({ currency: 'XYZ', accountInfo: { accountType: 'MXN_ACCOUNT', platformAccountId: 7 } } as never),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining('accountInfo.platformAccountId'),
    });
    expect(sent).toEqual([]);
  });
});

describe('the evolving service: webhooks (a verified delivery is always delivered)', () => {
  const events = Object.entries<any>(doc.webhooks).map(([type, item]) => ({ type, body: item.post.requestBody.content['application/json'].example as Json }));

  it('every event type of the document has an example', () => {
    expect(events.length).toBeGreaterThanOrEqual(12);
    for (const e of events) expect((e.body as { type: string }).type).toBe(e.type);
  });

  it(`every event example, its data grown, shrunk, nulled and given unknown values: unwrap returns it typed, issues attached, never thrown (${RUNS} cases per type); a changed byte or another key still refuses`, async () => {
    const keys = await generateWebhookKeyPair();
    const other = await generateWebhookKeyPair();
    const cb = new Crossborder({ tokenId: 't', clientSecret: 's', webhookPublicKey: keys.publicKeyPem });
    let withIssues = 0;
    let cases = 0;
    for (const event of events) {
      await fc.assert(
        fc.asyncProperty(mutations, fc.boolean(), async (steps, bare) => {
          let data = (event.body as { data: Json }).data;
          steps.forEach(([kind, pick], n) => (data = mutate(data, kind, pick, n)));
          const body = JSON.stringify({ ...(event.body as object), data });
          const header = await signWebhook(body, keys.privateKeyPem, { format: bare ? 'bare' : 'versioned' });
          const unwrapped = await cb.webhooks.unwrap(body, { 'X-Service-Signature': header });
          const { issues, ...rest } = unwrapped;
          expect(rest).toEqual(JSON.parse(body));
          if (issues) withIssues++;
          cases++;
          // Authenticity still decides: a changed byte, or another key, is refused.
          const changed = body.replace(event.type, `${event.type.slice(0, -1)}X`);
          await expect(cb.webhooks.unwrap(changed, { 'X-Service-Signature': header })).rejects.toMatchObject({ reason: 'invalid_signature' });
          await expect(cb.webhooks.unwrap(body, { 'X-Service-Signature': header }, { publicKey: other.publicKeyPem })).rejects.toBeInstanceOf(
            WebhookVerificationError,
          );
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }

    console.log(`[open-world] webhooks: ${cases} verified deliveries over ${events.length} event types, ${withIssues} delivered with issues, 0 refused`);
    expect(withIssues).toBeGreaterThan(0);
  }, 300_000);
});
