import 'reflect-metadata';
import { ValidationPipe, type ArgumentMetadata, type Type } from '@nestjs/common';
import fc from 'fast-check';
import { LIMITS } from '@alignerflow/domain';
import {
  AddNoteDto,
  AdvanceStageDto,
  ApproveCaseDto,
  AssigneeDto,
  ConcurrencyDto,
  RejectCaseDto,
  RequestChangesDto,
  ScanDto,
  SimulationLinksDto,
} from '../cases/cases.dto.js';
import { createValidationPipe } from './validation.js';

/** What a pipe makes of a body: the DTO it passes on, or the 400 it answers. */
async function outcome(pipe: ValidationPipe, dto: Type<unknown>, body: unknown) {
  const metadata: ArgumentMetadata = { type: 'body', metatype: dto };
  try {
    const value = await pipe.transform(body, metadata);
    return { passed: value, className: (value as object)?.constructor?.name };
  } catch (error) {
    return { rejected: (error as { getResponse(): unknown }).getResponse() };
  }
}

describe('the quick body check', () => {
  const quick = createValidationPipe();
  // The same options without the quick check: class-validator alone.
  const full = new ValidationPipe({ whitelist: true, transform: true, forbidUnknownValues: true });
  Object.assign(full, {
    exceptionFactory: (quick as unknown as { exceptionFactory: unknown }).exceptionFactory,
  });

  const dtos: Type<unknown>[] = [
    ConcurrencyDto,
    AddNoteDto,
    ApproveCaseDto,
    RejectCaseDto,
    AdvanceStageDto,
    RequestChangesDto,
    AssigneeDto,
    SimulationLinksDto,
    ScanDto,
  ];
  const fields = [
    'expectedVersion',
    'text',
    'doctorUsername',
    'reason',
    'fromStatus',
    'comment',
    'assignee',
    'simulationVideoUrl',
    'simulationExternalLink',
    'payload',
    'other',
  ];
  const value = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ minLength: LIMITS.username - 2, maxLength: LIMITS.username + 2 }),
    fc.constantFrom('\u{1F600}'.repeat(LIMITS.username), 'x'.repeat(LIMITS.noteText + 1)),
    fc.integer({ min: -3, max: 1000 }),
    fc.double(),
    fc.constantFrom(null, undefined, true, [], {}, -0),
  );

  it('passes on what class-validator passes on, and rejects with its texts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...dtos),
        fc.oneof(fc.dictionary(fc.constantFrom(...fields), value), value),
        async (dto, body) => {
          expect(await outcome(quick, dto, body)).toEqual(await outcome(full, dto, body));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives the DTO class, without the fields it does not know', async () => {
    const note = await quick.transform(
      { text: 'hi', expectedVersion: 3 },
      { type: 'body', metatype: AddNoteDto },
    );
    expect(note).toBeInstanceOf(AddNoteDto);
    expect(note).toEqual({ text: 'hi', expectedVersion: 3 });
    const stripped = await quick.transform({ text: 'hi', extra: 1 }, { type: 'body', metatype: AddNoteDto });
    expect(stripped).toEqual({ text: 'hi' });
  });
});
