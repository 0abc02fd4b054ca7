import {
  HttpException,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnModuleInit,
} from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import { AsyncLocalStorage } from 'node:async_hooks';
import { catchError, tap, throwError, type Observable } from 'rxjs';
import { Metrics, type CommandOutcome } from './metrics.js';

/** The commands a request sent to the command bus, by class name. */
interface Sent {
  types: string[];
}

/** 409 is a workflow rule or a concurrent change; other 4xx the caller's input or rights. */
export function commandOutcome(error?: unknown): CommandOutcome {
  if (error === undefined) return 'ok';
  const status = error instanceof HttpException ? error.getStatus() : 500;
  if (status === 409) return 'conflict';
  return status < 500 ? 'rejected' : 'error';
}

/**
 * Counts commands where they are executed, with the outcome their request ended with: the command
 * bus names each command it runs (its publisher sees every one, in the caller's async context),
 * and this interceptor, around every controller call, counts what its call sent once it ends.
 * Requests that send no command (reads) count nothing.
 */
@Injectable()
export class CommandMetrics implements NestInterceptor, OnModuleInit {
  private readonly sent = new AsyncLocalStorage<Sent>();

  constructor(
    private readonly bus: CommandBus,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const publisher = this.bus.publisher;
    this.bus.publisher = {
      publish: (command: ICommand) => {
        this.sent.getStore()?.types.push(command.constructor.name.replace(/Command$/, ''));
        return publisher.publish(command);
      },
    };
  }

  intercept(_: ExecutionContext, next: CallHandler): Observable<unknown> {
    const sent: Sent = { types: [] };
    // Nest binds the handler to the async context of this call of handle().
    return this.sent
      .run(sent, () => next.handle())
      .pipe(
        tap(() => this.count(sent)),
        catchError((error: unknown) => {
          this.count(sent, error);
          return throwError(() => error);
        }),
      );
  }

  private count(sent: Sent, error?: unknown): void {
    const outcome = commandOutcome(error);
    for (const type of sent.types.splice(0)) this.metrics.countCommand(type, outcome);
  }
}
