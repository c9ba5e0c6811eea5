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
import { registerGenerate } from './commands/generate.js';
import { registerCompile } from './commands/compile.js';
import { registerVerify } from './commands/verify.js';
import { registerServe } from './commands/serve.js';
import { registerKeys } from './commands/keys.js';
import { registerAudit } from './commands/audit.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerDemo } from './commands/demo.js';
import { registerImport } from './commands/import.js';
import { registerSigning } from './commands/signing.js';
import { registerMirror } from './commands/mirror.js';
import { registerPublish } from './commands/publish.js';

export function buildProgram(io: CliIO): Command {
  const program = new Command('catalog')
    .description('Collectibles partner API: compile catalog snapshots and serve them behind key auth.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showHelpAfterError('(run `catalog --help` for the list of commands)');
  registerGenerate(program, io);
  registerCompile(program, io);
  registerVerify(program, io);
  registerServe(program, io);
  registerKeys(program, io);
  registerAudit(program, io);
  registerWebhooks(program, io);
  registerDemo(program, io);
  registerImport(program, io);
  registerSigning(program, io);
  registerMirror(program, io);
  registerPublish(program, io);
  return program;
}

/** Runs the CLI and resolves to the process exit code; never throws. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const program = buildProgram(io);
  try {
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
