/**
 * The package's bin, `crossborder-sdk`: the entry and dispatch. The commands live one concern per
 * file: the command table (./table) and its resource commands (./resources), output and exit codes
 * (./output), the local sandbox (./sandbox), `listen` (./listen), `trigger` and `fixtures`
 * (./trigger), `mcp` (./mcp). Built on commander; the library's entries never load any of it.
 * @module
 */
import { Command, CommanderError } from 'commander';
import { editDistance } from '../core/suggest';
import { VERSION } from '../core/version';
import { addListenCommand } from './listen';
import { addMcpCommand } from './mcp';
import { addPayoutsCommand } from './payouts';
import { EXIT, redact, reportError } from './output';
import { addResourceCommands } from './resources';
import { addSandboxCommand } from './sandbox';
import { UsageError } from './table';
import { forShell } from './shared';
import { addFixturesCommand, addTriggerCommand } from './trigger';

/** Runs a command's body: errors are printed (with the request id and the key to retry with; the SDK's configuration errors in the shell's words) and become the exit code. */
export async function action(json: boolean, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.exitCode = reportError(forShell(error), json);
  }
}

/** A reader of stdout that went away (`| head`, a closed pipe): stop quietly, never crash on EPIPE. */
function quietOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
        // The sandbox listens for this to save and close first (see ./sandbox); other commands just stop.
        if (process.listenerCount('crossborder:stdout-closed') > 0) process.emit('crossborder:stdout-closed' as never);
        else process.exit(process.exitCode ?? 0);
        return;
      }
      throw error;
    });
  }
}

/** The whole program. */
export async function program(argv: string[]): Promise<Command> {
  const root = new Command('crossborder-sdk')
    .description(
      'The Cross-Border Payments API from the command line: every operation, a local sandbox, webhook listen/trigger, scenario fixtures, and an MCP server.',
    )
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(add --help for usage)')
    // A command's options only before its subcommands: `sandbox --json` serves, `sandbox uma receive … --json` is the operation's.
    .enablePositionalOptions()
    .exitOverride()
    // commander's own errors quote what was given (a URL with credentials): redacted as the CLI's are. Inherited by every command.
    .configureOutput({ writeErr: (text) => process.stderr.write(redact(text)) });
  root.configureHelp({ sortSubcommands: true });
  addSandboxCommand(root, action);
  await addResourceCommands(root, action, argv);
  addListenCommand(root, action);
  addTriggerCommand(root, action);
  addFixturesCommand(root, action);
  addMcpCommand(root, action);
  addPayoutsCommand(root, action);
  // Every subcommand reports usage errors as the root does: exit 2, not commander's 1.
  const walk = (command: Command) => {
    command.exitOverride();
    // The sandbox's verbs print their whole usage after an error; the others a hint.
    if (!(command as unknown as { _showHelpAfterError: unknown })._showHelpAfterError) command.showHelpAfterError('(add --help for usage)');
    for (const sub of command.commands) walk(sub);
  };
  walk(root);
  return root;
}

/** The name among `names` closest to `word` (a prefix either way first, then by edit distance). */
export function closest(word: string, names: string[]): string | undefined {
  const scored = names.map((name) => ({ name, d: name.startsWith(word) || word.startsWith(name) ? 1 : editDistance(word, name) })).sort((x, y) => x.d - y.d);
  return scored[0]?.name;
}

/**
 * Refuses a command word that names no command (`nosuch`, `customers nosuch`, `help nosuch`), with or
 * without `--help`: commander would print the parent's help and exit 0 for `nosuch --help`.
 */
export function refuseUnknownCommand(root: Command, argv: string[]): void {
  const words = argv[0] === 'help' ? argv.slice(1) : argv;
  let command = root;
  const path: string[] = [];
  for (const word of words) {
    if (word.startsWith('-') || command.commands.length === 0) return;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      command = sub;
      path.push(word);
      continue;
    }
    // A command with arguments of its own takes the word as one of them.
    if (command.registeredArguments.length > 0) return;
    const names = command.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    const near = closest(word, names);
    const parent = ['crossborder-sdk', ...path].join(' ');
    throw new UsageError(
      `unknown command '${[...path, word].join(' ')}'${near ? `; the closest is '${[...path, near].join(' ')}'` : ''} (${parent} --help lists the commands)`,
    );
  }
}

/** Parses and runs `argv` (after `node cli.js`). */
export async function main(argv: string[]): Promise<void> {
  quietOnClosedPipes();
  try {
    const root = await program(argv);
    refuseUnknownCommand(root, argv);
    await root.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; everything else commander refuses is a usage error.
      process.exitCode = error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : EXIT.usage;
      return;
    }
    process.exitCode = reportError(forShell(error), argv.includes('--json'));
  }
}

await main(process.argv.slice(2));
