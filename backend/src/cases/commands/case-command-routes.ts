import { Body, Delete, Header, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Case } from '@alignerflow/domain';
import { Caller } from '../../common/current-actor.js';
import { CaseAnswerJson } from '../case-answer-json.js';
import { CaseCommandService } from '../case-command.service.js';
import {
  answersCase,
  CASE_COMMAND_TABLE,
  type CaseCommandRoute,
  type RouteInput,
} from './case-command-table.js';
import type { CommandCounts } from './command-counts.js';

const METHODS = { post: Post, put: Put, delete: Delete };

/**
 * The routes of CASE_COMMAND_TABLE, as controller methods: each is decorated as a hand-written one
 * would be (its path, answer code, `@Caller()`, `@Param()`s and `@Body()` with the parameter types
 * TypeScript would have emitted), so validation, the session gate and the OpenAPI document see
 * ordinary routes. A domain command goes straight to CaseCommandService; a command with a handler
 * of its own goes on the command bus. An answer that is the whole case is sent as the JSON bytes
 * CaseAnswerJson makes (the notes' bytes kept between commands), as they are.
 */
export abstract class CaseCommandRoutes {
  private readonly answerJson = new CaseAnswerJson();

  constructor(
    protected readonly commandBus: CommandBus,
    protected readonly commands: CaseCommandService,
    protected readonly counts: CommandCounts,
  ) {}

  protected runRoute(
    route: CaseCommandRoute<unknown>,
    { actor, correlationId }: Caller,
    params: Record<string, string>,
    body: unknown,
  ): Promise<unknown> {
    const expectedVersion = route.expectedVersion
      ? route.expectedVersion(body)
      : (body as { expectedVersion?: number } | undefined)?.expectedVersion;
    const input: RouteInput<unknown> = { params, body, actor, options: { correlationId, expectedVersion } };
    if ('send' in route) {
      const answered: Promise<unknown> = this.commandBus.execute(route.send(input) as never);
      return answersCase(route) ? answered.then((state) => this.caseAnswer(state as Case)) : answered;
    }
    const command = route.command(input);
    return this.counts.counted(route.countAs?.(input) ?? command.type, () =>
      route.answer
        ? this.commands
            .execute(params.id, command, actor, input.options)
            .then((updated) => route.answer!(updated, input))
        : // Its bytes made at once: the state's notes are the memory's own (executeForAnswer).
          this.commands
            .executeForAnswer(params.id, command, actor, input.options)
            .then((updated) => this.caseAnswer(updated)),
    );
  }

  /** The case's JSON bytes: Fastify sends a Buffer as it is, under the route's JSON Content-Type. */
  private caseAnswer(state: Case): Buffer {
    return this.answerJson.of(state);
  }
}

for (const [name, route] of Object.entries(CASE_COMMAND_TABLE)) mountRoute(name, route);

function mountRoute(name: string, route: CaseCommandRoute<unknown>): void {
  const prototype = CaseCommandRoutes.prototype;
  const paramNames = [...route.path.matchAll(/:(\w+)/g)].map(([, param]) => param);
  const hasBody = route.body !== undefined;
  const method = function (this: CaseCommandRoutes, caller: Caller, ...args: unknown[]) {
    const params = Object.fromEntries(paramNames.map((param, index) => [param, args[index] as string]));
    return this['runRoute'](route, caller, params, hasBody ? args[paramNames.length] : undefined);
  };
  Object.defineProperty(method, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  // In the order TypeScript applies a hand-written method's decorators: its types, its parameters
  // from the last, then the method's own from the bottom up.
  Reflect.defineMetadata('design:returntype', Promise, prototype, name);
  Reflect.defineMetadata(
    'design:paramtypes',
    [Object, ...paramNames.map(() => String), ...(hasBody ? [route.body] : [])],
    prototype,
    name,
  );
  Reflect.defineMetadata('design:type', Function, prototype, name);
  if (hasBody) Body()(prototype, name, paramNames.length + 1);
  for (let index = paramNames.length - 1; index >= 0; index--)
    Param(paramNames[index])(prototype, name, index + 1);
  Caller()(prototype, name, 0);
  route.describeBody?.(prototype, name, descriptor);
  if (route.status) HttpCode(route.status)(prototype, name, descriptor);
  // Every answer of the table is JSON, the case's bytes included (a Buffer would otherwise go as octet-stream).
  Header('Content-Type', 'application/json; charset=utf-8')(prototype, name, descriptor);
  METHODS[route.method](route.path)(prototype, name, descriptor);
}
