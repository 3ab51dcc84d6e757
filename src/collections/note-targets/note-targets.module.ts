import { Module } from '@nestjs/common';
import { NoteTargetsController } from './note-targets.controller';

@Module({ controllers: [NoteTargetsController] })
export class NoteTargetsModule {}
