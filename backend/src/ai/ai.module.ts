import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { FilesModule } from '../files/files.module.js';
import { AiController } from './ai.controller.js';
import { PhotoAnalysisModel } from './photo-analysis.model.js';

@Module({ imports: [CasesModule, FilesModule], controllers: [AiController], providers: [PhotoAnalysisModel] })
export class AiModule {}
