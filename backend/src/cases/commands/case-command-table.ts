import type { Type } from '@nestjs/common';
import {
  casePayload,
  parseInteger,
  parseStatus,
  type Actor,
  type Case,
  type CaseCommand,
  type StagingAction,
} from '@alignerflow/domain';
import { rejectWith } from '../../common/domain-rejection.js';
import { JsonBody } from '../../common/request-body.js';
import type { CommandOptions } from '../case-command.service.js';
import {
  AddFilesDto,
  AdvanceStageDto,
  ApproveCaseDto,
  AssigneeDto,
  ConcurrencyDto,
  AddNoteDto,
  PricingDto,
  RejectCaseDto,
  RemoveFileDto,
  ReorderDto,
  RequestChangesDto,
  ScanDto,
  SimulationLinksDto,
} from '../cases.dto.js';
import { AddFilesCommand } from './add-files.command.js';
import { AdvanceStageCommand } from './advance-stage.command.js';
import { ApproveCaseCommand } from './approve-case.command.js';
import { OrderFollowUpCommand } from './order-follow-up.command.js';
import { ReassignStageCommand } from './reassign-stage.command.js';
import { ScanQrCommand } from './scan-qr.command.js';

/** What a route hands its command: the path's parameters, the checked body, who asks, the options. */
export interface RouteInput<Body> {
  params: Record<string, string>;
  body: Body;
  actor: Actor;
  options: CommandOptions;
}

interface RouteShape<Body> {
  method: 'post' | 'put' | 'delete';
  /** Under the API prefix, in Nest's syntax. */
  path: string;
  /** When not Nest's default (201 for POST, 200 otherwise). */
  status?: 200 | 204;
  /** The validated body (cases.dto.ts); `Object` for a body the route checks itself; none: no body read. */
  body?: Type<Body> | typeof Object;
  /** How the OpenAPI document describes a body that is no DTO. */
  describeBody?: MethodDecorator;
  /** The version the caller saw; by default the body's `expectedVersion` (a ConcurrencyDto's, checked). */
  expectedVersion?: (body: Body) => number | undefined;
}

/** A command the domain decides as it is: the case is the path's `:id`. */
export interface DomainRoute<Body> extends RouteShape<Body> {
  command(input: RouteInput<Body>): CaseCommand;
  /** The answer, when it is not the updated case. */
  answer?(updated: Case, input: RouteInput<Body>): unknown;
  /** The name it is counted under, when not the domain command's type. */
  countAs?(input: RouteInput<Body>): string;
}

/** A command whose handler (commands/*.command.ts) looks something up first; sent on the command bus. */
export interface HandlerRoute<Body> extends RouteShape<Body> {
  send(input: RouteInput<Body>): object;
  /** The handler answers something other than the case it changed (or made). */
  answersOther?: true;
}

export type CaseCommandRoute<Body = never> = DomainRoute<Body> | HandlerRoute<Body>;

/** Whether the route answers the whole case it changed or made (sent as CaseAnswerJson's text). */
export function answersCase(route: CaseCommandRoute<unknown>): boolean {
  return 'command' in route ? !route.answer : !route.answersOther;
}

function isVersion(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

const STAGING_ACTIONS: Record<string, StagingAction> = {
  start: 'start',
  complete: 'complete',
  reopen: 'reopen',
  reset: 'reset',
};

/** The entries of one table, each typed by its own body. */
const route = <Body>(entry: CaseCommandRoute<Body>) => entry as CaseCommandRoute<unknown>;

/**
 * Every case command's route: the key is the controller method (the OpenAPI operationId
 * `CasesController_<key>`), the entry its path, answer code, body and command. A new command is
 * its rule in the domain, one entry here and its test. Order is the routes' mounting order.
 * (POST /cases, which counts against the caller's limit first, is CasesController's own.)
 */
export const CASE_COMMAND_TABLE = {
  /** Edit Case: the full case may be sent back; only the edit fields may differ. */
  edit: route<Record<string, unknown>>({
    method: 'put',
    path: 'cases/:id',
    body: Object,
    describeBody: JsonBody(
      'The fields to change (those of POST /api/cases), and optionally expectedVersion.',
      {
        type: 'object',
      },
    ),
    expectedVersion: (body) => {
      if (!body || typeof body !== 'object' || Array.isArray(body))
        rejectWith('invalid', 'The body must be a JSON object.');
      // As for every other command: a mistyped version is refused, never silently ignored.
      const { expectedVersion } = body;
      if (expectedVersion !== undefined && expectedVersion !== null && !isVersion(expectedVersion))
        rejectWith('invalid', 'expectedVersion must be a whole number from 0.');
      return isVersion(expectedVersion) ? expectedVersion : undefined;
    },
    command: ({ body }) => ({ type: 'EditCase', fields: body }),
  }),
  remove: route({
    method: 'delete',
    path: 'cases/:id',
    status: 204,
    command: () => ({ type: 'DeleteCase' }),
    answer: () => undefined,
  }),
  approve: route<ApproveCaseDto>({
    method: 'post',
    path: 'cases/:id/approve',
    status: 200,
    body: ApproveCaseDto,
    send: ({ params, body, actor, options }) =>
      new ApproveCaseCommand(params.id, actor, options, { doctorUsername: body.doctorUsername }),
  }),
  reject: route<RejectCaseDto>({
    method: 'post',
    path: 'cases/:id/reject',
    status: 200,
    body: RejectCaseDto,
    command: ({ body }) => ({ type: 'RejectCase', reason: body.reason }),
  }),
  advance: route<AdvanceStageDto>({
    method: 'post',
    path: 'cases/:id/advance',
    status: 200,
    body: AdvanceStageDto,
    send: ({ params, body, actor, options }) =>
      new AdvanceStageCommand(params.id, actor, options, {
        fromStatus: body.fromStatus,
        lots: body.lots,
        machine: body.machine,
      }),
  }),
  approveTreatmentPlan: route<ConcurrencyDto>({
    method: 'post',
    path: 'cases/:id/doctor-approve',
    status: 200,
    body: ConcurrencyDto,
    command: () => ({ type: 'ApproveTreatmentPlan' }),
  }),
  requestChanges: route<RequestChangesDto>({
    method: 'post',
    path: 'cases/:id/request-changes',
    status: 200,
    body: RequestChangesDto,
    command: ({ body }) => ({ type: 'RequestChanges', comment: body.comment }),
  }),
  hold: route<ConcurrencyDto>({
    method: 'post',
    path: 'cases/:id/hold',
    status: 200,
    body: ConcurrencyDto,
    command: () => ({ type: 'HoldCase' }),
  }),
  resume: route<ConcurrencyDto>({
    method: 'post',
    path: 'cases/:id/resume',
    status: 200,
    body: ConcurrencyDto,
    command: () => ({ type: 'ResumeCase' }),
  }),
  addNote: route<AddNoteDto>({
    method: 'post',
    path: 'cases/:id/notes',
    body: AddNoteDto,
    command: ({ body }) => ({ type: 'AddNote', text: body.text }),
  }),
  pricing: route<PricingDto>({
    method: 'put',
    path: 'cases/:id/pricing',
    body: PricingDto,
    command: ({ body: { price, upperSheets, lowerSheets } }) => ({
      type: 'UpdatePricing',
      price,
      upperSheets,
      lowerSheets,
    }),
  }),
  simulation: route<SimulationLinksDto>({
    method: 'put',
    path: 'cases/:id/simulation',
    body: SimulationLinksDto,
    command: ({ body }) => ({
      type: 'SaveSimulationLinks',
      simulationVideoUrl: body.simulationVideoUrl,
      simulationExternalLink: body.simulationExternalLink,
    }),
  }),
  reassign: route<AssigneeDto>({
    method: 'put',
    path: 'cases/:id/stages/:status/assignee',
    body: AssigneeDto,
    send: ({ params, body, actor, options }) =>
      new ReassignStageCommand(params.id, actor, options, {
        stage: parseStatus(params.status) ?? params.status,
        assignee: body.assignee,
      }),
  }),
  /** Showing the case QR; a Technician doing so takes the current stage (spec section 4). */
  qr: route<ConcurrencyDto>({
    method: 'post',
    path: 'cases/:id/qr',
    status: 200,
    body: ConcurrencyDto,
    command: () => ({ type: 'GenerateCaseQr' }),
    answer: (updated) => ({ case: updated, payload: casePayload(updated.id) }),
  }),
  /** The aligner staging transitions of spec section 4. */
  staging: route<ConcurrencyDto>({
    method: 'post',
    path: 'cases/:id/staging/:n/:action',
    status: 200,
    body: ConcurrencyDto,
    command: ({ params }) => {
      if (!Object.hasOwn(STAGING_ACTIONS, params.action))
        rejectWith('not_found', `Unknown staging action "${params.action}".`);
      const stageNumber = parseInteger(params.n);
      if (stageNumber === undefined || stageNumber < 1)
        rejectWith('invalid', 'Stage must be a whole number from 1.');
      return { type: 'ChangeAlignerStage', stageNumber, action: STAGING_ACTIONS[params.action] };
    },
    countAs: ({ params }) => `${params.action[0].toUpperCase()}${params.action.slice(1)}AlignerStage`,
  }),
  addFiles: route<AddFilesDto>({
    method: 'post',
    path: 'cases/:id/files',
    status: 200,
    body: AddFilesDto,
    send: ({ params, body, actor, options }) =>
      new AddFilesCommand(params.id, actor, options, { files: body.files }),
  }),
  removeFile: route<RemoveFileDto>({
    method: 'post',
    path: 'cases/:id/files/remove',
    status: 200,
    body: RemoveFileDto,
    command: ({ body }) => ({ type: 'RemoveFile', url: body.url, reason: body.reason }),
  }),
  /** A remake or refinement of a completed case: 201 with the new case. */
  reorder: route<ReorderDto>({
    method: 'post',
    path: 'cases/:id/reorders',
    body: ReorderDto,
    send: ({ params, body: { kind, reasonCode, reason }, actor, options }) =>
      new OrderFollowUpCommand(params.id, actor, options, { kind, reasonCode, reason }),
  }),
  scan: route<ScanDto>({
    method: 'post',
    path: 'scan',
    status: 200,
    body: ScanDto,
    expectedVersion: () => undefined,
    send: ({ body, actor, options }) => new ScanQrCommand(body.payload, actor, options),
    answersOther: true,
  }),
};
