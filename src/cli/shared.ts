/**
 * What the commands share, written once: the effect of a call (from the generated operation table,
 * never from the HTTP method), the one rule that decides where a command points, and the shell's
 * words for the SDK's configuration errors.
 * @module
 */
import { ConfigurationError, DEFAULT_BASE_URLS, isLoopbackHost } from './sdk';
import { redactUserinfo } from './output';
import { UsageError } from './table';
import { OPERATION_DOCS } from '../generated/cli-docs';
import { operationEffects } from '../generated/effects';
import type { DocumentOperation, Effect, OperationEffect, OperationId } from '../generated/operations';

export type { Effect };

/** How a command runs its body: errors printed, the exit code set (the program's `action`, ./index). */
export type Action = (json: boolean, body: () => Promise<void>) => Promise<void>;

/** The effects from least to most sensitive. */
export const EFFECTS: readonly Effect[] = ['read', 'write', 'money', 'secret'];

/** The MCP server's flag that allows each effect beyond reads. */
export const EFFECT_FLAG: Readonly<Record<Exclude<Effect, 'read'>, string>> = {
  write: '--allow-writes',
  money: '--allow-money-movement',
  secret: '--allow-key-export',
};

/**
 * What an operation may do, from the generated table. An operation the table does not have (none of
 * the CLI's, but the type allows it) counts as the most sensitive.
 */
export function effectOf(op: DocumentOperation): OperationEffect {
  return (operationEffects as Partial<Record<string, OperationEffect>>)[op.id as OperationId] ?? { effect: 'secret', destructive: true };
}

/** The body fields of this call that raise its effect (`immediatelyExecute: true` on a quote), with the effect each raises it to. */
export function raisingFields(op: DocumentOperation, body: unknown): [field: string, effect: Effect][] {
  const { raisedBy } = effectOf(op);
  if (!raisedBy || body === undefined || body === null) return [];
  // A body that is not an object (a JSON text, a list) cannot be read here: it counts as raising, as it might.
  if (typeof body !== 'object' || Array.isArray(body)) return Object.entries(raisedBy);
  const given = body as Record<string, unknown>;
  // Sent with any value but false or null: the service decides what a value it does not expect means, so it counts.
  return Object.entries(raisedBy).filter(
    ([field]) => Object.hasOwn(given, field) && given[field] !== undefined && given[field] !== false && given[field] !== null,
  );
}

/** What this call does: the operation's declared effect, raised by the body fields that raise it. */
export function callEffect(op: DocumentOperation, body: unknown): Effect {
  let { effect } = effectOf(op);
  for (const [, raised] of raisingFields(op, body)) if (EFFECTS.indexOf(raised) > EFFECTS.indexOf(effect)) effect = raised;
  return effect;
}

/** The most an operation may do, whatever its body (its declared effect, or the highest a body field raises it to). */
export function mostEffect(op: DocumentOperation): Effect {
  return callEffect(op, Object.fromEntries(Object.keys(effectOf(op).raisedBy ?? {}).map((field) => [field, true])));
}

/** What an operation's `x-sdk.doc` says, in the CLI's and the MCP tools' words. */
export interface OperationDoc {
  /** The first paragraph, on one line: a command's one-line description. */
  summary: string;
  /** Every paragraph before the first tag, each on one line (`{@link X}` read as `X`), without the `@example` code. */
  paragraphs: string[];
  /** The code of each `@example` (the fence's lines, without the fence). */
  examples: string[];
}

/** `{@link X}` and `{@link X | text}` as a reader of plain text reads them: `X`, `text`. */
const plainLinks = (text: string) =>
  text.replace(/\{@link(?:code|plain)?\s+([^}|]+?)\s*(?:\|\s*([^}]+?)\s*)?\}/g, (_, target: string, label?: string) => label ?? target);

/**
 * Splits an operation's `x-sdk.doc` (the TSDoc of the SDK's method) into its paragraphs and its examples: the
 * prose is what every surface says the operation does, the `@example`s are TypeScript for the SDK.
 */
export function readDoc(doc: string): OperationDoc {
  const lines = doc.split(/\r?\n/);
  const firstTag = lines.findIndex((line) => /^\s*@\w/.test(line));
  const prose = (firstTag < 0 ? lines : lines.slice(0, firstTag)).join('\n');
  const paragraphs = prose
    .split(/\n\s*\n/)
    .map((p) => plainLinks(p).replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const examples: string[] = [];
  let current: string[] | undefined;
  let inExample = false;
  for (const line of firstTag < 0 ? [] : lines.slice(firstTag)) {
    const tag = /^\s*@(\w+)/.exec(line);
    if (tag && current === undefined) {
      inExample = tag[1] === 'example';
      continue;
    }
    if (!inExample) continue;
    if (/^\s*```/.test(line)) {
      if (current === undefined) current = [];
      else (examples.push(current.join('\n')), (current = undefined));
      continue;
    }
    current?.push(line);
  }
  return { summary: paragraphs[0] ?? '', paragraphs, examples };
}

let docs: Map<string, OperationDoc> | undefined;

/**
 * Each operation's `x-sdk.doc` (the one text the SDK's TSDoc is generated from), by operationId, generated from the
 * document (src/generated/cli-docs.ts): what the MCP tools and a command's `--help` say it does. An operation without
 * one says its `summary`.
 */
export function operationDocs(): Map<string, OperationDoc> {
  return (docs ??= new Map(Object.entries(OPERATION_DOCS).map(([id, text]) => [id, readDoc(text)])));
}

/** Where a command points when nothing says otherwise: the local sandbox. */
export const LOCAL_SANDBOX_URL = 'http://127.0.0.1:4010';

/** What a profile of the config file may say about where to point. */
export interface TargetProfile {
  baseUrl?: string | undefined;
  environment?: 'sandbox' | 'production' | undefined;
}

/** Where a command points, and what decided it. */
export interface Target {
  /** The service's address as given (the SDK adds the version segment). */
  baseUrl: string;
  /** What chose it: `--base-url`, `profile`, `CROSSBORDER_BASE_URL`, `production` (chosen by `--environment production`, the profile or `CROSSBORDER_ENVIRONMENT`), or `default` (the local sandbox). */
  from: '--base-url' | 'profile' | 'CROSSBORDER_BASE_URL' | 'production' | 'default';
}

const envValue = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};

/**
 * The one rule every command follows to decide where it points: `--base-url`, then the profile's
 * `baseUrl`, then `CROSSBORDER_BASE_URL`, then the local sandbox (http://127.0.0.1:4010). Production's
 * address is used only when the user chose production (`--environment production`, a profile whose
 * `environment` is production, or `CROSSBORDER_ENVIRONMENT=production`) and gave no address:
 * credentials alone never send a command there.
 */
export function targetOf(options: { baseUrl?: string | undefined; environment?: string | undefined }, profile: TargetProfile = {}): Target {
  if (options.baseUrl) return withoutUserinfo({ baseUrl: options.baseUrl, from: '--base-url' });
  if (profile.baseUrl) return withoutUserinfo({ baseUrl: profile.baseUrl, from: 'profile' });
  const fromEnv = envValue('CROSSBORDER_BASE_URL');
  if (fromEnv) return withoutUserinfo({ baseUrl: fromEnv, from: 'CROSSBORDER_BASE_URL' });
  if ((options.environment ?? profile.environment ?? envValue('CROSSBORDER_ENVIRONMENT')) === 'production')
    return { baseUrl: DEFAULT_BASE_URLS.production, from: 'production' };
  return { baseUrl: LOCAL_SANDBOX_URL, from: 'default' };
}

/** An address with credentials in it (`http://user:secret@host`) is refused, and said without them: fetch would refuse it anyway, and the CLI prints addresses. */
function withoutUserinfo(target: Target): Target {
  let url: URL | undefined;
  try {
    url = new URL(target.baseUrl);
  } catch {
    return target;
  }
  if (url.username === '' && url.password === '') return target;
  throw new UsageError(
    `${target.from} ${redactUserinfo(target.baseUrl)}: an address with credentials in it is not used; give them with --profile or CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET`,
  );
}

/** The origin of a service address (`http://127.0.0.1:4010/2025-10-13` → `http://127.0.0.1:4010`): where the sandbox's `/_sandbox/` controls are. */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}

/**
 * True when the address is this machine: 127.0.0.0/8, ::1 (and its IPv4-mapped form), `localhost` and
 * `*.localhost`, by the sandbox's own rule (core/loopback, shared by both). `0.0.0.0` is every interface, not loopback.
 */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** An address for output: no userinfo, query or fragment (a password in a URL never reaches the terminal). */
export function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(an address that is not a URL)';
  }
}

/** The SDK's option names as the shell spells them: the flag, or the environment variable where there is no flag. */
const SHELL_WORDS: Record<string, string> = {
  tokenId: 'CROSSBORDER_TOKEN_ID',
  clientSecret: 'CROSSBORDER_CLIENT_SECRET',
  baseUrl: '--base-url (or CROSSBORDER_BASE_URL)',
  environment: '--environment (or CROSSBORDER_ENVIRONMENT)',
  maxRetries: '--max-retries',
  timeout: '--timeout',
};

/**
 * A configuration error in the shell's language: `Missing tokenId: pass { tokenId } or set
 * CROSSBORDER_TOKEN_ID` becomes `missing credentials: set CROSSBORDER_TOKEN_ID and
 * CROSSBORDER_CLIENT_SECRET, or give --profile NAME`; an option named as JavaScript names it
 * (`baseUrl must be…`) is named by its flag. Other errors are returned as they are.
 */
export function forShell(error: unknown): unknown {
  if (!(error instanceof ConfigurationError)) return error;
  if (/^Missing (tokenId|clientSecret):/.test(error.message)) {
    return new ConfigurationError(
      'missing credentials: set CROSSBORDER_TOKEN_ID and CROSSBORDER_CLIENT_SECRET, or give --profile NAME (a profile of the config file)',
    );
  }
  const message = error.message
    .replace(/\bpass \{ (\w+) \} or set (\w+)/g, 'set $2')
    .replace(/^(tokenId|clientSecret|baseUrl|environment|maxRetries|timeout)\b/, (name) => SHELL_WORDS[name]!);
  return message === error.message ? error : new ConfigurationError(message);
}
