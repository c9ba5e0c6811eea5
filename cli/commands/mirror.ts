import type { Command } from 'commander';
import type { CliIO } from '../io.js';
export function registerMirror(_p: Command, _io: CliIO): void {}
