/**
 * The SDK client the commands call: a {@link CrossborderCore} (the public core: the commands run the
 * generated table's operations through it, as the resources do), pointed where the one rule of
 * ./shared says (`--base-url`, the profile, `CROSSBORDER_BASE_URL`, else the local sandbox), with
 * credentials from the same environment variables as the SDK (`CROSSBORDER_*`, read by the client
 * itself), or from a profile of the config file (`--profile`), which is refused when others than its
 * owner may read it. Wallet sessions saved to a file (`--save-session`) and read back
 * (`--session-key`) as the signer of signed operations.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cliCore, ConfigurationError, readSettings, type ClientOptions, type CrossborderCore, type Signer } from './sdk';
import { parseJsonText, readFileBounded, writePrivateFile } from './files';
import { SANDBOX_CREDENTIALS } from './control';
import { forShell, targetOf, type Target } from './shared';
import { UsageError } from './table';
import { noteAgent } from './output';

/** Options every API command takes. */
export interface ConnectionOptions {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  environment?: string | undefined;
  maxRetries?: string | undefined;
  timeout?: string | undefined;
  /** The command's operation takes no credential (the document's `security: []`): none is asked for. */
  anonymous?: boolean | undefined;
}

/** The config file: `CROSSBORDER_CONFIG`, else `~/.config/crossborder/config.json`. */
export function configPath(): string {
  return process.env.CROSSBORDER_CONFIG ?? join(homedir(), '.config', 'crossborder', 'config.json');
}

/** A profile: what the client's options are set from. */
interface Profile {
  tokenId?: string;
  clientSecret?: string;
  baseUrl?: string;
  environment?: 'sandbox' | 'production';
  webhookPublicKey?: string;
}

/** Reads profile `name` from the config file; refuses a file others may read (it holds a secret). */
export function readProfile(name: string): Profile {
  const file = configPath();
  if (!existsSync(file)) throw new UsageError(`--profile ${name}: no config file at ${file} (set CROSSBORDER_CONFIG to another path)`);
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new UsageError(
      `--profile ${name}: ${file} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); it holds your client secret: run chmod 600 ${file}`,
    );
  }
  // The file holds the client secret: a syntax error names the line and column, never the text.
  const parsed = parseJsonText(readFileBounded(file, `--profile ${name}: ${file}`), `--profile ${name}: ${file}`) as {
    profiles?: Record<string, Profile>;
  } | null;
  const profiles = parsed?.profiles !== null && typeof parsed?.profiles === 'object' ? parsed.profiles : {};
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (!profile || typeof profile !== 'object') {
    throw new UsageError(`--profile ${name}: no such profile in ${file} (there are: ${Object.keys(profiles).join(', ') || 'none'})`);
  }
  return profile;
}

const whole = (flag: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} needs a whole number, got '${text}'`);
  return Number(text);
};

/** A command's client, and where it points (what chose the address). */
export interface Connection {
  core: CrossborderCore;
  target: Target;
  /** True when the credentials are the sandbox's own, given because nothing else was (the local default only). */
  sandboxCredentials: boolean;
  /** True when the credential is an agent's (`CROSSBORDER_AGENT_TOKEN`, with no platform credentials in the profile): the client is that agent. */
  agent: boolean;
}

const present = (name: string) => (process.env[name] ?? '') !== '';

/**
 * The SDK client for a command: pointed by {@link targetOf}; credentials from the profile, else the
 * SDK's own environment variables; the local sandbox's default address alone, with no credentials
 * anywhere, gets the sandbox's (it accepts any). A configuration error speaks the shell's language.
 */
export function connect(options: ConnectionOptions, extra: ClientOptions = {}): Connection {
  if (options.environment !== undefined && options.environment !== 'sandbox' && options.environment !== 'production') {
    throw new UsageError(`--environment needs sandbox or production, got '${options.environment}'`);
  }
  const profile = options.profile ? readProfile(options.profile) : {};
  const target = targetOf(options, profile);
  const environment =
    target.from === 'production' ? 'production' : (options.environment ?? profile.environment ?? (target.from === 'default' ? 'sandbox' : undefined));
  // An agent's credential counts: the local default must not put the sandbox's platform credentials in its place.
  const credentials =
    profile.tokenId !== undefined ||
    profile.clientSecret !== undefined ||
    present('CROSSBORDER_TOKEN_ID') ||
    present('CROSSBORDER_CLIENT_SECRET') ||
    present('CROSSBORDER_AGENT_TOKEN');
  const sandboxCredentials = target.from === 'default' && !credentials;
  try {
    const clientOptions: ClientOptions = {
      ...profile,
      ...(sandboxCredentials ? SANDBOX_CREDENTIALS : {}),
      baseUrl: target.baseUrl,
      ...(environment ? { environment } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: whole('--max-retries', options.maxRetries) } : {}),
      ...(options.timeout !== undefined ? { timeout: whole('--timeout', options.timeout) } : {}),
      ...extra,
    };
    // The SDK asks for credentials at the first call (a webhook-only client needs none); every command
    // here calls the API, so a missing one is said before anything starts.
    const { missingCredentials, authorization } = readSettings(clientOptions);
    if (missingCredentials !== undefined && !options.anonymous) throw new ConfigurationError(missingCredentials);
    // An agent's credential (agentToken, CROSSBORDER_AGENT_TOKEN) is sent as a Bearer token: the client is that agent.
    const agent = authorization.startsWith('Bearer ');
    noteAgent(agent);
    return { core: cliCore(clientOptions), target, sandboxCredentials, agent };
  } catch (error) {
    throw forShell(error);
  }
}

/** A session as `--save-session` writes it (mode 0600). The private key is the session's signing key. */
export interface SavedSession {
  format: 'crossborder-wallet-session/1';
  id: string | undefined;
  credentialId: string;
  accountId: string | undefined;
  expiresAt: string | undefined;
  publicKey: string;
  privateKey: string;
}

/** A fresh P-256 key for `clientPublicKey`: the CLI keeps its scalar to save the session it opens. */
export async function newClientKey(): Promise<{ scalar: Uint8Array; publicKey: string }> {
  const [{ p256 }, { bytesToHex }] = await Promise.all([import('@noble/curves/nist.js'), import('../wallet/encoding')]);
  const scalar = p256.utils.randomSecretKey();
  return { scalar, publicKey: bytesToHex(p256.getPublicKey(scalar, false)) };
}

/**
 * The session signing key of a verify answer: the sealed key opened with the client key, or (no
 * sealed key: the service answers so for a compressed clientPublicKey) the client key itself.
 */
async function sessionScalar(sealed: unknown, client: { scalar: Uint8Array }): Promise<Uint8Array> {
  if (typeof sealed !== 'string' || sealed === '') return client.scalar;
  const [{ p256 }, { bytesToBase64url }, { ECDH_P256, subtle }, { openSessionBundle }] = await Promise.all([
    import('@noble/curves/nist.js'),
    import('../wallet/encoding'),
    import('../wallet/webcrypto'),
    import('../wallet/hpke'),
  ]);
  const point = p256.getPublicKey(client.scalar, false);
  const jwk: JsonWebKey = {
    kty: 'EC',
    crv: 'P-256',
    x: bytesToBase64url(point.subarray(1, 33)),
    y: bytesToBase64url(point.subarray(33)),
    d: bytesToBase64url(client.scalar),
  };
  const key = await subtle().importKey('jwk', jwk, ECDH_P256, false, ['deriveBits']);
  return openSessionBundle(sealed, key, point);
}

/** Writes the session of a verify answer to `file`, owner-only; answers what was written, without the key. */
export async function saveSession(
  file: string,
  answer: Record<string, unknown>,
  credentialId: string,
  client: { scalar: Uint8Array },
): Promise<Omit<SavedSession, 'privateKey'>> {
  const [{ p256 }, { bytesToHex, compressPoint }] = await Promise.all([import('@noble/curves/nist.js'), import('../wallet/encoding')]);
  const scalar = await sessionScalar(answer.encryptedSessionSigningKey, client);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const saved: SavedSession = {
    format: 'crossborder-wallet-session/1',
    id: str(answer.id),
    credentialId,
    accountId: str(answer.accountId),
    expiresAt: str(answer.expiresAt),
    publicKey: bytesToHex(compressPoint(p256.getPublicKey(scalar, false))),
    privateKey: bytesToHex(scalar),
  };
  writePrivateFile(file, `${JSON.stringify(saved, null, 2)}\n`, '--save-session');
  const { privateKey: _secret, ...shown } = saved;
  return shown;
}

/** The credential of a session saved by `--save-session` (read after {@link sessionSigner} checked the file), if it names one. */
export function savedCredentialId(file: string): string | undefined {
  const saved = parseJsonText(readFileBounded(file, `--session-key ${file}`), `--session-key ${file}`) as Partial<SavedSession> | null;
  return typeof saved?.credentialId === 'string' && saved.credentialId !== '' ? saved.credentialId : undefined;
}

/** The signer of a session saved by `--save-session`; refuses a file others may read, or an expired session. */
export async function sessionSigner(file: string): Promise<Signer> {
  if (!existsSync(file)) throw new UsageError(`--session-key ${file}: no such file (write one with auth credentials verify … --save-session ${file})`);
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0)
    throw new UsageError(
      `--session-key ${file}: readable by others (mode ${mode.toString(8).padStart(4, '0')}); it holds a signing key: run chmod 600 ${file}`,
    );
  let saved: Partial<SavedSession> | null;
  try {
    saved = parseJsonText(readFileBounded(file, `--session-key ${file}`), `--session-key ${file}`) as Partial<SavedSession> | null;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}: not a session file (JSON written by --save-session)`);
  }
  if (saved === null || typeof saved !== 'object' || saved.format !== 'crossborder-wallet-session/1' || typeof saved.privateKey !== 'string') {
    throw new UsageError(`--session-key ${file}: not a session file (written by auth credentials verify … --save-session)`);
  }
  if (saved.expiresAt && Date.parse(saved.expiresAt) <= Date.now()) {
    throw new UsageError(`--session-key ${file}: the session expired at ${saved.expiresAt}; verify the credential again`);
  }
  const [{ importSessionKey }, { sessionKeySigner }] = await Promise.all([import('../wallet/keys'), import('../wallet/stamp')]);
  return sessionKeySigner(await importSessionKey(saved.privateKey));
}
