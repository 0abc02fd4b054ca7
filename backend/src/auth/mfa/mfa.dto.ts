import type {
  MfaLoginBody,
  PasskeyLoginBody,
  PasskeyLoginOptionsBody,
  PasskeyRegisterBody,
  ReauthBody,
  TotpConfirmBody,
} from '@alignerflow/domain';
import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

export class TotpConfirmDto implements TotpConfirmBody {
  @IsString({ message: 'code is required.' })
  @MaxLength(32)
  code!: string;
}

export class MfaLoginDto implements MfaLoginBody {
  @IsString({ message: 'mfaToken is required.' })
  @IsNotEmpty({ message: 'mfaToken is required.' })
  @MaxLength(128)
  mfaToken!: string;

  @IsOptional() @IsString() @MaxLength(32) code?: string;
  @IsOptional() @IsString() @MaxLength(64) recoveryCode?: string;
  /** A WebAuthn authentication response (JSON). */
  @IsOptional() @IsObject() credential?: Record<string, unknown>;
}

export class PasskeyRegisterDto implements PasskeyRegisterBody {
  /** A WebAuthn registration response (JSON). */
  @IsObject({ message: 'credential is required.' }) credential!: Record<string, unknown>;

  @IsString({ message: 'name is required.' })
  @IsNotEmpty({ message: 'name is required.' })
  @MaxLength(100)
  name!: string;
}

export class PasskeyLoginOptionsDto implements PasskeyLoginOptionsBody {
  @IsOptional() @IsString() @MaxLength(128) mfaToken?: string;
}

export class PasskeyLoginDto implements PasskeyLoginBody {
  /** A WebAuthn authentication response (JSON). */
  @IsObject({ message: 'credential is required.' }) credential!: Record<string, unknown>;
}

export class ReauthDto implements ReauthBody {
  @IsOptional() @IsString() @MaxLength(1024) password?: string;
  @IsOptional() @IsString() @MaxLength(32) code?: string;
  /** A WebAuthn authentication response (JSON), after POST /auth/reauth/options. */
  @IsOptional() @IsObject() credential?: Record<string, unknown>;
}
