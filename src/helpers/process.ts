/**
 * Whether a process runs, for the parts that watch one (the sandbox's state-file clean-up, the CLI's
 * sandbox watching the process that started it, the payout locks).
 * @module
 */

/**
 * True while a process with this id runs on this machine: signal 0 reaches it, or is refused with
 * EPERM (it runs, as another user).
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
