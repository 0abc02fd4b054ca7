import { HttpException } from '@nestjs/common';
import { CASE_COMMAND_TABLE, type DomainRoute, type RouteInput } from './case-command-table';

const input = <Body>(params: Record<string, string>, body: Body): RouteInput<Body> => ({
  params,
  body,
  actor: { username: 'admin', role: 'Manager' },
  options: { correlationId: 'c-1' },
});

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof HttpException ? error.getStatus() : -1;
  }
}

describe('the case command table', () => {
  const staging = CASE_COMMAND_TABLE.staging as DomainRoute<object>;
  const edit = CASE_COMMAND_TABLE.edit as DomainRoute<Record<string, unknown>>;

  it('turns a staging route into the domain command, counted under the action it names', () => {
    const request = input({ id: 'CA-1', n: '3', action: 'complete' }, {});
    expect(staging.command(request)).toEqual({
      type: 'ChangeAlignerStage',
      stageNumber: 3,
      action: 'complete',
    });
    expect(staging.countAs!(request)).toBe('CompleteAlignerStage');
  });

  it('answers 404 for an unknown staging action before it reads the stage number, then 400', () => {
    expect(statusOf(() => staging.command(input({ id: 'CA-1', n: 'x', action: 'toString' }, {})))).toBe(404);
    expect(statusOf(() => staging.command(input({ id: 'CA-1', n: '0', action: 'start' }, {})))).toBe(400);
  });

  it('takes an edit’s version from its body, refusing a mistyped one and a body that is no object', () => {
    expect(edit.expectedVersion!({ patientName: 'A', expectedVersion: 4 })).toBe(4);
    expect(edit.expectedVersion!({ patientName: 'A', expectedVersion: null })).toBeUndefined();
    expect(statusOf(() => edit.expectedVersion!({ expectedVersion: '4' }))).toBe(400);
    expect(statusOf(() => edit.expectedVersion!([] as unknown as Record<string, unknown>))).toBe(400);
    expect(edit.command(input({ id: 'CA-1' }, { patientName: 'A' }))).toEqual({
      type: 'EditCase',
      fields: { patientName: 'A' },
    });
  });

  it('gives every entry a path, a method, and either a domain command or a command to send', () => {
    for (const [name, route] of Object.entries(CASE_COMMAND_TABLE)) {
      expect([name, route.path]).toEqual([name, expect.stringMatching(/^[a-z]/)]);
      expect(['post', 'put', 'delete']).toContain(route.method);
      expect('command' in route !== 'send' in route).toBe(true);
    }
  });
});
