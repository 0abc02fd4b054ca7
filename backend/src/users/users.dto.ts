import type { CreateUserBody, UpdateUserBody } from '@alignerflow/domain';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** May be left out, but null is no value for it (unlike email, where null clears the address). */
const OptionalNotNull = () => ValidateIf((_, value) => value !== undefined);

export class CreateUserDto implements CreateUserBody {
  @IsOptional() @IsString() @MaxLength(256) username?: string;
  @IsOptional() @IsString() @MaxLength(1024) password?: string;
  @IsOptional() @IsString() @MaxLength(64) role?: string;
  @IsOptional() @IsString() @MaxLength(254) email?: string;
}

export class UpdateUserDto implements UpdateUserBody {
  @OptionalNotNull() @IsBoolean() activationSoundEnabled?: boolean;
  @IsOptional() @IsString() @MaxLength(254) email?: string | null;
  @OptionalNotNull() @IsString() @MaxLength(64) role?: string;
  @OptionalNotNull() @IsString() @MaxLength(1024) password?: string;
  /** The channels the user is told on; either switch may be left out (checkNotify). */
  @OptionalNotNull() @IsObject() notify?: { push?: boolean; email?: boolean };
  /** Needed when users change their own password. */
  @OptionalNotNull() @IsString() @MaxLength(1024) currentPassword?: string;
}
