import type { CliCommand } from '../command';
import { fetchCommand } from './fetch';
import { buildCommand } from './build';
import { funnelCommand } from './funnel';
import { exportCommand } from './export';
import { verifyCommand } from './verify';
import { diffCommand } from './diff';
import { initCommand } from './init';
import { protectCommand } from './protect';

export const COMMANDS: CliCommand[] = [initCommand, fetchCommand, buildCommand, funnelCommand, exportCommand, verifyCommand, diffCommand, protectCommand] as CliCommand[];
