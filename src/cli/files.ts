/**
 * Files and input from the user's machine, handled in one place:
 *
 * - **Reads are bounded.** A file, a pipe or stdin is read up to a limit ({@link INPUT_LIMIT_BYTES}
 *   for request bodies, scenarios, config and session files; {@link STATE_LIMIT_BYTES} for sandbox
 *   state documents) and never buffered beyond it: `--data @/dev/zero` stops after the limit with an
 *   error naming it.
 * - **Files holding a secret or state are written new, owner-only, without following links**
 *   ({@link writePrivateFile}): a temporary file is created beside the target (`O_CREAT|O_EXCL`,
 *   `O_NOFOLLOW`, mode 0600), written, flushed, then renamed over the target. A target that exists and
 *   is not the user's own regular file (a symbolic link, a directory, a FIFO or device, a file of
 *   another user) is refused before anything is written, and left untouched.
 * - **JSON errors never quote the text**: `JSON.parse`'s message quotes the input around the error,
 *   which for a config file is the client secret. {@link parseJsonText} reports the line and column.
 * @module
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../helpers/atomic-write';
import { UsageError } from './table';

/** The largest file or stdin the CLI reads as a request body, scenario, config or session file: 8 MiB. */
export const INPUT_LIMIT_BYTES = 8 * 1024 * 1024;

/** The largest sandbox state document the CLI reads (`state import`, `sandbox --state`): 128 MiB, what the sandbox's own `PUT /_sandbox/state` accepts. */
export const STATE_LIMIT_BYTES = 128 * 1024 * 1024;

/** `8 MiB`. */
export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** An input over its limit (exit 2). */
export class InputTooLargeError extends UsageError {
  constructor(
    readonly label: string,
    readonly limit: number,
  ) {
    super(`${label}: larger than the limit of ${formatBytes(limit)}; nothing was sent`);
  }
}

const CHUNK = 64 * 1024;

/** Most bytes the file of a multipart part (`--file` of `documents upload`, `customers bulk csv upload`) is read to: 64 MiB, what the SDK reads of a stream. */
export const FILE_PART_LIMIT_BYTES = 64 * 1024 * 1024;

/** Reads the file at `path` (a regular file, a pipe, a device) up to `limit` bytes, as UTF-8 text; more is an {@link InputTooLargeError}, read no further. */
export function readFileBounded(path: string, label: string, limit = INPUT_LIMIT_BYTES): string {
  return readFileBytesBounded(path, label, limit).toString('utf8');
}

/** Reads the file at `path` (a regular file, a pipe, a device) up to `limit` bytes, as they are; more is an {@link InputTooLargeError}, read no further. */
export function readFileBytesBounded(path: string, label: string, limit = INPUT_LIMIT_BYTES): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`${label}: ${describeFsError(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`${label}: is a directory`);
    if (stat.isFile() && stat.size > limit) throw new InputTooLargeError(label, limit);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
        throw new UsageError(`${label}: ${describeFsError(error)}`);
      }
      if (n === 0) break;
      total += n;
      if (total > limit) throw new InputTooLargeError(label, limit);
      chunks.push(buffer.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** Reads stdin to its end, up to `limit` bytes; more is an {@link InputTooLargeError}, and stdin is not read further. */
export async function readStdinBounded(label: string, limit = INPUT_LIMIT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > limit) {
      process.stdin.destroy();
      throw new InputTooLargeError(label, limit);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** Reads `source`: `-` is stdin, anything else a file path; bounded by `limit`. */
export async function readInput(source: string, label: string, limit = INPUT_LIMIT_BYTES): Promise<string> {
  return source === '-' ? readStdinBounded(label, limit) : readFileBounded(source, label, limit);
}

/**
 * Parses JSON; a syntax error names `label` and the line and column only, never the text around it
 * (`JSON.parse`'s own message quotes the input, and the input may be a secret).
 */
export function parseJsonText(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const at = jsonErrorOffset(text);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new UsageError(`${label}: not valid JSON (line ${line}, column ${column})`);
  }
}

/** The offset of the first JSON syntax error in `text` (its length when the text ends too soon). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // the opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail();
      } else i++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === '' || match[0] === '-') fail();
    i += match![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail();
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail();
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
  return text.length;
}

/** Why a file operation failed, without a stack: `no such file or directory`. */
function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a part of the path is not a directory',
    ELOOP: 'is a symbolic link',
  };
  return (code !== undefined && Object.hasOwn(known, code) ? known[code] : undefined) ?? (error instanceof Error ? error.message : String(error));
}

/** What is wrong with an existing `file` as the target of a private write; undefined when it is absent or the user's own regular file. */
function unsafeTarget(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return describeFsError(error);
  }
  if (stat.isSymbolicLink()) return 'it is a symbolic link';
  if (stat.isDirectory()) return 'it is a directory';
  if (!stat.isFile()) return `it is not a regular file (${stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : 'a device'})`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `it belongs to another user (uid ${stat.uid})`;
  return undefined;
}

/**
 * Refuses (a {@link UsageError}) a `file` that exists and is not the user's own regular file: the
 * check {@link writePrivateFile} makes, for a file written later by another part (the sandbox's
 * `--state` persister).
 */
export function refuseUnsafeTarget(file: string, label: string): void {
  const why = unsafeTarget(file);
  if (why) throw new UsageError(`${label} ${file}: refused, ${why}; nothing was written (remove it or choose another path)`);
}

/**
 * Writes `text` to `file`, owner-only (0600), as a new file: a temporary file in the same folder,
 * created exclusively without following links, flushed, then renamed over `file`. An existing
 * `file` that is not the user's own regular file is refused ({@link refuseUnsafeTarget}) and left as
 * it was; on any failure the temporary file is removed. `text` may come in pieces (a report streamed
 * from a journal), written one after the other.
 */
export function writePrivateFile(file: string, text: string | Iterable<string>, label: string): void {
  refuseUnsafeTarget(file, label);
  const target = resolve(file);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // Checked again just before the rename: what appeared at the path since is refused too.
    writeFileAtomic(target, text, { temporary, beforeRename: () => refuseUnsafeTarget(file, label) });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${label} ${file}: ${describeFsError(error)}; nothing was written`);
  }
}
