import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateUserDto {
  @IsOptional() @IsString() @MaxLength(256) username?: string;
  @IsOptional() @IsString() @MaxLength(1024) password?: string;
  @IsOptional() @IsString() @MaxLength(64) role?: string;
  @IsOptional() @IsString() @MaxLength(254) email?: string;
}

export class UpdateUserDto {
  @IsOptional() @IsBoolean() activationSoundEnabled?: boolean;
  @IsOptional() @IsString() @MaxLength(254) email?: string | null;
  @IsOptional() @IsString() @MaxLength(64) role?: string;
  @IsOptional() @IsString() @MaxLength(1024) password?: string;
}
