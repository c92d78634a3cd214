import type { CliCommand } from '../command';
import { fetchCommand } from './fetch';
import { buildCommand } from './build';
import { funnelCommand } from './funnel';
import { exportCommand } from './export';
import { verifyCommand } from './verify';
import { diffCommand } from './diff';
import { initCommand } from './init';
import { protectCommand } from './protect';
import { judgeCommand } from './judge';
import { auditExportCommand, auditReportCommand, auditSampleCommand } from './audit';
import { labelsImportCommand } from './labels';
import { flagsListCommand, flagsSetCommand } from './flags';
import { tagCommand } from './tag';
import { diversityCommand } from './diversity';
import { halvesCommand } from './halves';

export const COMMANDS: CliCommand[] = [
  initCommand,
  fetchCommand,
  buildCommand,
  funnelCommand,
  exportCommand,
  verifyCommand,
  diffCommand,
  tagCommand,
  protectCommand,
  halvesCommand,
  diversityCommand,
  auditSampleCommand,
  auditExportCommand,
  auditReportCommand,
  labelsImportCommand,
  flagsListCommand,
  flagsSetCommand,
  judgeCommand,
] as CliCommand[];
