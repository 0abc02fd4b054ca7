import type { LoginBody } from '@alignerflow/domain';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class LoginDto implements LoginBody {
  @IsString({ message: 'Username is required.' })
  @MaxLength(256)
  username!: string;

  @IsString({ message: 'Password is required.' })
  @IsNotEmpty({ message: 'Password is required.' })
  @MaxLength(1024)
  password!: string;

  @IsOptional()
  @IsBoolean()
  rememberMe?: boolean;
}
