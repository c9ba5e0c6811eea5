// Command-line helpers the benchmark scripts share: they parse argv by hand (a few flags each), and
// their helpers take a file or folder as the first argument and stop with a usage line without one.

/** The arguments after the script; without a first one, prints `usage: <usage>` and exits with `exitCode`. */
export function argumentsOrUsage(usage, exitCode = 64) {
  const args = process.argv.slice(2);
  if (!args[0]) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(exitCode);
  }
  return args;
}

/** The number after `--name` in args (`--cards 1000`), or `fallback` when the flag is absent. */
export function numberOption(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}
