import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { CASE_ERASURE, LIMITS } from '@alignerflow/domain';

export class EraseCaseDto {
  @IsString({ message: CASE_ERASURE.reasonRequired }) @MaxLength(LIMITS.reason) reason!: string;
}

export class PurgeFileDto {
  @IsString({ message: CASE_ERASURE.fileNotFound }) @MaxLength(LIMITS.url) url!: string;
  @IsString({ message: CASE_ERASURE.reasonRequired }) @MaxLength(LIMITS.reason) reason!: string;
}

/** eraseAfterYears: the domain judges the range (isRetentionYears); null is "never". */
export class RetentionDto {
  @IsOptional() @IsInt({ message: CASE_ERASURE.retentionRange }) eraseAfterYears!: number | null;
}
