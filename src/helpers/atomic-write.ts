/**
 * The one atomic write of the package: what the sandbox's state file and the CLI's private files
 * (configuration, sessions, reports) are written with. Node only (node:fs).
 * @module
 */
import { closeSync, constants, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** The temporary file: in the same folder as the target, so that the rename stays on one file system. */
  temporary: string;
  /** Called once the temporary file is flushed, just before the rename; a throw leaves the target as it was. */
  beforeRename?: () => void;
}

/** Creates `path` new, owner-only, without following a link (`O_CREAT|O_EXCL|O_NOFOLLOW`). */
const createNew = (path: string) => openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);

/**
 * Writes `text` (a string, or pieces written one after the other) to `file` atomically: the
 * temporary file is created new, owner-only (0600 whatever the umask), written, flushed to disk
 * (fsync), then renamed over `file`. A reader sees the old content or the new, never part of one. A
 * temporary file of the same name left by a process killed mid-write is replaced. On any failure the
 * temporary file is removed and the error thrown; `file` is left as it was.
 */
export function writeFileAtomic(file: string, text: string | Iterable<string>, options: AtomicWriteOptions): void {
  const { temporary } = options;
  let fd: number | undefined;
  try {
    try {
      fd = createNew(temporary);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      rmSync(temporary, { force: true });
      fd = createNew(temporary);
    }
    fchmodSync(fd, 0o600);
    for (const piece of typeof text === 'string' ? [text] : text) {
      const bytes = Buffer.from(piece, 'utf8');
      for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    options.beforeRename?.();
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}
