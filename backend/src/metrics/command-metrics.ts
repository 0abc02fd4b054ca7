import { HttpException, Injectable, type OnModuleInit } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { CommandCounts } from '../cases/commands/command-counts.js';
import { Metrics, type CommandOutcome } from './metrics.js';

/** 409 is a workflow rule or a concurrent change; other 4xx the caller's input or rights. */
export function commandOutcome(error?: unknown): CommandOutcome {
  if (error === undefined) return 'ok';
  const status = error instanceof HttpException ? error.getStatus() : 500;
  if (status === 409) return 'conflict';
  return status < 500 ? 'rejected' : 'error';
}

/** Counts each command around its own run, with the outcome it ended with. */
export function commandCounts(metrics: Metrics): CommandCounts {
  return {
    async counted(type, run) {
      try {
        const result = await run();
        metrics.countCommand(type, 'ok');
        return result;
      } catch (error) {
        metrics.countCommand(type, commandOutcome(error));
        throw error;
      }
    },
  };
}

/**
 * Counts every command the command bus executes, by class name; the case commands of the route
 * table (cases/commands/case-command-table.ts), which skip the bus, count through COMMAND_COUNTS.
 * Wrapping the bus, rather than intercepting every request and following it with
 * AsyncLocalStorage, leaves requests that send no command (reads) untouched.
 */
@Injectable()
export class CommandMetrics implements OnModuleInit {
  constructor(
    private readonly bus: CommandBus,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const counts = commandCounts(this.metrics);
    const execute = this.bus.execute.bind(this.bus) as (
      command: ICommand,
      ...rest: unknown[]
    ) => Promise<unknown>;
    this.bus.execute = ((command: ICommand, ...rest: unknown[]) =>
      counts.counted(command.constructor.name.replace(/Command$/, ''), () =>
        execute(command, ...rest),
      )) as CommandBus['execute'];
  }
}
