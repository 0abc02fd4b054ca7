import { Module } from '@nestjs/common';
import { UserCommandService } from './user-command.service.js';
import { UserViewProjection } from './user-view.projection.js';
import { UsersController } from './users.controller.js';
import { UsersQueries } from './users.queries.js';

@Module({
  controllers: [UsersController],
  providers: [UsersQueries, UserCommandService, UserViewProjection],
  exports: [UsersQueries, UserCommandService, UserViewProjection],
})
export class UsersModule {}
