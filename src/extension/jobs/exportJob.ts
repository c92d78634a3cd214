// An export started from the palette (Export…, Export Search/Replace…, Export for the Hub…): the
// saver's pending labels and flag decisions reach the file first, since the export reads them from
// it; then the job process, and its summary in the log and as information.
import * as vscode from 'vscode';
import type { CorpusSession } from '../session';
import { plainText } from '../plainText';
import { runJobProcess } from './runJobProcess';
import type { JobRequest, JobResult } from '../../core/jobs/jobs';

export async function runExportJob(
  extensionPath: string,
  session: CorpusSession,
  title: string,
  req: JobRequest,
): Promise<JobResult> {
  await session.flush();
  const r = await runJobProcess(extensionPath, title, req, session.log);
  session.log.info(r.summary);
  void vscode.window.showInformationMessage(plainText(r.summary));
  return r;
}
