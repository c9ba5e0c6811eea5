/**
 * The `catalog` binary loads only the module of the command it runs (cli/main.ts COMMANDS): the
 * version, the command list, commander's suggestion for a typo and a command's own help must still
 * be what they were with every command loaded.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildProgram } from '../../cli/main.js';
import type { CliIO } from '../../cli/io.js';

const COMMANDS = ['generate', 'compile', 'verify', 'serve', 'keys', 'audit', 'webhooks', 'demo', 'import', 'signing', 'mirror', 'publish'];

describe('catalog commands', () => {
  it('when asked for the version or the help then it prints them, the help listing every command', async () => {
    const version = await runCli(['--version']);
    expect([version.code, version.stdout]).toEqual([0, '0.1.0\n']);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const listed = [...help.stdout.split('Commands:')[1].matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...COMMANDS, 'help']);
  });

  it('when a command is named then only its module is loaded, and it registers that same name', async () => {
    // cli/main.ts names each lazily loaded module; the module names its command again (commander's
    // .command): a name that drifted apart would make that command unknown when it is run.
    const io: CliIO = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
    for (const name of COMMANDS) {
      const program = await buildProgram(io, ['node', 'catalog', name]);
      expect(program.commands.map((c) => c.name())).toEqual([name]);
    }
  });

  it('when a command is mistyped then exit 64 with the suggestion; a command\'s help names its own options', async () => {
    const typo = await runCli(['compil']);
    expect(typo.code).toBe(64);
    expect(typo.stderr).toContain("unknown command 'compil'");
    expect(typo.stderr).toContain('Did you mean compile?');
    const keys = await runCli(['keys', 'mint', '--help']);
    expect(keys.code).toBe(0);
    expect(keys.stdout).toContain('--tenant <name>');
    const viaHelp = await runCli(['help', 'verify']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('Usage: catalog verify');
  });
});
