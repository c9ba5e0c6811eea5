/**
 * The `catalog` binary: the composition root. It only parses options and calls into compiler/ and
 * proxy/; each command lives in its own file under commands/. Errors become one stderr line and the
 * exit code mapped in snapshots/errors.ts.
 */
import { Command, CommanderError } from 'commander';
import { CatalogError, isCatalogError } from '../snapshots/errors.js';
import { redactKeys } from '../proxy/keys/format.js';
import { processIO, type CliIO } from './io.js';
import { systemError } from './system-errors.js';
type Register = (program: Command, io: CliIO) => void;

/**
 * Each command's module, loaded only when it is the one run: a command's chain pulls in what it
 * needs (pg and ioredis for the fleet state, undici for HTTP sources, prom-client for the proxy),
 * and loading every one made each invocation, `catalog --version` included, spend about 1.5 s of
 * CPU before doing anything (2026-12-03, 2 cores). The version needs none; help or an unknown command loads all,
 * so the list and commander's "did you mean" still see every command. In the order `--help` lists them.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  compile: async () => (await import('./commands/compile.js')).registerCompile,
  verify: async () => (await import('./commands/verify.js')).registerVerify,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  keys: async () => (await import('./commands/keys.js')).registerKeys,
  audit: async () => (await import('./commands/audit.js')).registerAudit,
  webhooks: async () => (await import('./commands/webhooks.js')).registerWebhooks,
  demo: async () => (await import('./commands/demo.js')).registerDemo,
  import: async () => (await import('./commands/import.js')).registerImport,
  signing: async () => (await import('./commands/signing.js')).registerSigning,
  mirror: async () => (await import('./commands/mirror.js')).registerMirror,
  publish: async () => (await import('./commands/publish.js')).registerPublish,
};

/** The program with the command `argv` runs (argv as process.argv: node, script, command, …), or every command. */
export async function buildProgram(io: CliIO, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('catalog')
    .description('Collectibles partner API: compile catalog snapshots and serve them behind key auth.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showHelpAfterError('(run `catalog --help` for the list of commands)');
  const named = argv[2];
  const loaders = named === '--version' || named === '-V' ? []
    : named !== undefined && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]] : Object.values(COMMANDS);
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program, io);
  return program;
}

/** Runs the CLI and resolves to the process exit code; never throws. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  try {
    const program = await buildProgram(io, argv);
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end through exitOverride with code 0; usage errors were already printed.
      return err.exitCode === 0 ? 0 : 64;
    }
    const known = isCatalogError(err) ? err : systemError(err);
    if (known !== null) {
      // A key pasted where a key ID or a name belongs must not be printed back (docs/auth.md).
      io.stderr.write(`catalog: ${redactKeys(known.message)}\n`);
      return known.exitCode;
    }
    const wrapped = new CatalogError('internal', 'unexpected failure', {}, { cause: err });
    io.stderr.write(`catalog: ${wrapped.message}: ${(err as Error)?.message ?? String(err)}\n`);
    return wrapped.exitCode;
  }
}
