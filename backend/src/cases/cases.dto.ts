import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  CASE_TEXTS,
  CASE_WORK_TEXTS,
  DEVICE_TEXTS,
  LOT_NUMBER_MAX,
  MACHINE_MAX,
  LIMITS,
  PRIORITIES,
  type AddFilesBody,
  type AdvanceStageBody,
  type ApproveCaseBody,
  type AssigneeBody,
  type CreateCaseBody,
  type ExpectedVersion,
  type NoteBody,
  type PricingBody,
  type RejectCaseBody,
  type RemoveFileBody,
  type ReorderBody,
  type RequestChangesBody,
  type ScanBody,
  type SimulationLinksBody,
} from '@alignerflow/domain';
import { optional, quickBodyCheck, shortText, wholeNumber } from '../common/validation.js';

/** A number or a numeric string; the domain decides what it means ("99.90", '' and 'abc' included). */
const NumberOrText = () =>
  ValidateIf((_, value) => value !== null && value !== undefined && typeof value !== 'number');

export class ConcurrencyDto implements ExpectedVersion {
  @IsOptional() @IsInt() @Min(0) expectedVersion?: number;
}

export class CreateCaseDto implements CreateCaseBody {
  @IsString() @MaxLength(LIMITS.name) patientName!: string;
  @IsString() @MaxLength(LIMITS.name) doctorName!: string;
  @IsString() @MaxLength(LIMITS.name) clinicName!: string;
  @IsOptional() @IsIn(PRIORITIES, { message: CASE_TEXTS.invalidPriority }) priority?: string;
  @IsOptional() @IsString() @MaxLength(30) deliveryDate?: string | null;
  @IsOptional() @IsString() @MaxLength(LIMITS.notes) treatmentPlanNotes?: string;
  @IsOptional() @IsArray() @IsObject({ each: true }) files?: Record<string, unknown>[];
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) price?: number | string | null;
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) upperSheets?: number | string | null;
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) lowerSheets?: number | string | null;
}

export class ApproveCaseDto extends ConcurrencyDto implements ApproveCaseBody {
  @IsString({ message: CASE_TEXTS.chooseDoctor })
  @MaxLength(LIMITS.username)
  doctorUsername!: string;
}

export class RejectCaseDto extends ConcurrencyDto implements RejectCaseBody {
  @IsString({ message: CASE_TEXTS.reasonRequired }) @MaxLength(LIMITS.reason) reason!: string;
}

export class AdvanceStageDto extends ConcurrencyDto implements AdvanceStageBody {
  @IsOptional() @IsString() @MaxLength(64) fromStatus?: string;
  @IsOptional()
  @IsArray({ message: DEVICE_TEXTS.lotsList })
  @ArrayMaxSize(20)
  @IsString({ each: true, message: DEVICE_TEXTS.lotsList })
  @MaxLength(LOT_NUMBER_MAX, { each: true })
  lots?: string[];
  @IsOptional() @IsString() @MaxLength(MACHINE_MAX) machine?: string;
}

export class RequestChangesDto extends ConcurrencyDto implements RequestChangesBody {
  @IsString({ message: CASE_TEXTS.commentRequired })
  @MaxLength(LIMITS.reason)
  comment!: string;
}

export class AddNoteDto extends ConcurrencyDto implements NoteBody {
  @IsString({ message: CASE_TEXTS.noteEmpty }) @MaxLength(LIMITS.noteText) text!: string;
}

export class PricingDto extends ConcurrencyDto implements PricingBody {
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) price?: number | string | null;
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) upperSheets?: number | string | null;
  @IsOptional() @NumberOrText() @IsString() @MaxLength(32) lowerSheets?: number | string | null;
}

export class SimulationLinksDto extends ConcurrencyDto implements SimulationLinksBody {
  @IsOptional() @IsString() @MaxLength(LIMITS.url) simulationVideoUrl?: string;
  @IsOptional() @IsString() @MaxLength(LIMITS.url) simulationExternalLink?: string;
}

export class AssigneeDto extends ConcurrencyDto implements AssigneeBody {
  @IsString({ message: CASE_TEXTS.assigneeRequired })
  @MaxLength(LIMITS.username)
  assignee!: string;
}

export class ScanDto implements ScanBody {
  @IsString({ message: CASE_TEXTS.invalidQr }) @MaxLength(1000) payload!: string;
}

// The bodies commands usually get, vouched for without class-validator (see quickBodyCheck).
const version = optional(wholeNumber);
quickBodyCheck(ConcurrencyDto, { expectedVersion: version });
quickBodyCheck(AddNoteDto, { text: shortText(LIMITS.noteText), expectedVersion: version });
quickBodyCheck(ApproveCaseDto, { doctorUsername: shortText(LIMITS.username), expectedVersion: version });
quickBodyCheck(RejectCaseDto, { reason: shortText(LIMITS.reason), expectedVersion: version });
quickBodyCheck(AdvanceStageDto, {
  fromStatus: optional(shortText(64)),
  expectedVersion: version,
  // Lots and machine go through class-validator.
  lots: (value) => value === undefined,
  machine: (value) => value === undefined,
});
quickBodyCheck(RequestChangesDto, { comment: shortText(LIMITS.reason), expectedVersion: version });
quickBodyCheck(AssigneeDto, { assignee: shortText(LIMITS.username), expectedVersion: version });
quickBodyCheck(SimulationLinksDto, {
  simulationVideoUrl: optional(shortText(LIMITS.url)),
  simulationExternalLink: optional(shortText(LIMITS.url)),
  expectedVersion: version,
});
quickBodyCheck(ScanDto, { payload: shortText(1000) });

export class AddFilesDto extends ConcurrencyDto implements AddFilesBody {
  // Each file's shape is the domain's to check (checkAddedFiles), with its texts.
  @IsArray({ message: CASE_WORK_TEXTS.filesRequired }) files!: unknown[];
}

export class RemoveFileDto extends ConcurrencyDto implements RemoveFileBody {
  @IsString({ message: CASE_WORK_TEXTS.fileUrlRequired }) @MaxLength(LIMITS.url) url!: string;
  @IsOptional()
  @IsString({ message: CASE_WORK_TEXTS.removeReasonRequired })
  @MaxLength(LIMITS.reason)
  reason?: string;
}

/** kind, reasonCode and reason are the domain's to judge (checkReorder), with its texts. */
export class ReorderDto extends ConcurrencyDto implements ReorderBody {
  @IsOptional() @IsString({ message: CASE_WORK_TEXTS.reorderKind }) @MaxLength(32) kind?: string;
  @IsOptional() @IsString({ message: CASE_WORK_TEXTS.reasonCode }) @MaxLength(32) reasonCode?: string | null;
  @IsOptional() @IsString() @MaxLength(LIMITS.reason) reason?: string;
}
quickBodyCheck(RemoveFileDto, {
  url: shortText(LIMITS.url),
  reason: optional(shortText(LIMITS.reason)),
  expectedVersion: version,
});
quickBodyCheck(ReorderDto, {
  kind: optional(shortText(32)),
  reasonCode: optional(shortText(32)),
  reason: optional(shortText(LIMITS.reason)),
  expectedVersion: version,
});
