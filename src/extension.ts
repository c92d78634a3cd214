// Activation only wires things together; each feature lives in a register… module.
import * as vscode from 'vscode';
import path from 'node:path';
import { CorpusSession } from './extension/session';
import { OUTPUT_CHANNEL } from './extension/ids/views';
import { SaltStore } from './extension/salt';
import { registerTree } from './extension/tree/registerTree';
import { registerContentProvider } from './extension/diff/contentProvider';
import { CommentDecorations } from './extension/diff/decorations';
import { FlagDecorations } from './extension/diff/flagDecorations';
import { ReadOnlyCommentThreads } from './extension/diff/commentThreads';
import { ActiveExample } from './extension/diff/activeExample';
import { registerCorpusCommands } from './extension/registerCorpusCommands';
import { registerPlanFetch } from './extension/registerPlanFetch';
import { registerJudge } from './extension/registerJudge';
import { registerReviewCommands } from './extension/registerReviewCommands';
import { registerCorpusReports } from './extension/registerCorpusReports';
import { registerSearchReplace } from './extension/registerSearchReplace';
import { registerHubExport } from './extension/registerHubExport';
import { registerProtectReferences } from './extension/registerProtectReferences';
import { registerAuditSample } from './extension/registerAuditSample';
import { registerHalvesCommand } from './extension/registerHalvesCommand';
import { ProtectedOverlapDecorations } from './extension/diff/protectedDecorations';
import { registerStatusBar } from './extension/registerStatusBar';
import { registerFunnelReport } from './extension/funnel/registerFunnelReport';
import { registerSampleCorpus } from './extension/registerSampleCorpus';
import { registerNewCorpus } from './extension/registerNewCorpus';
import { registerQualityLabel } from './extension/registerQualityLabel';
import { registerLabelling, type LabellingApi } from './extension/labelling/registerLabelling';
import { showError } from './extension/registerCommand';

/** What the extension exports; the integration suite reads state through it. */
export interface ReviewCorpusApi {
  session: CorpusSession;
  tree: ReturnType<typeof registerTree>['tree'];
  threads: ReadOnlyCommentThreads;
  flags: FlagDecorations;
  comments: CommentDecorations;
  protectedOverlaps: ProtectedOverlapDecorations;
  active: ActiveExample;
  labelling: LabellingApi;
}

export async function activate(context: vscode.ExtensionContext): Promise<ReviewCorpusApi> {
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL, { log: true });
  const session = new CorpusSession(log, path.join(context.extensionPath, 'dist', 'worker.js'));
  openSession = session;
  const salt = new SaltStore(context.secrets);
  const { tree, disposables: treeDisposables } = registerTree(session);
  const active = new ActiveExample(session);
  const { labelling, disposables: labellingDisposables } = registerLabelling(context, session, salt, active, tree);
  const api: ReviewCorpusApi = {
    session,
    tree,
    active,
    labelling,
    threads: new ReadOnlyCommentThreads(session),
    flags: new FlagDecorations(session),
    comments: new CommentDecorations(session, context.extensionUri),
    protectedOverlaps: new ProtectedOverlapDecorations(session),
  };
  context.subscriptions.push(
    log,
    session,
    active,
    api.threads,
    api.flags,
    api.comments,
    api.protectedOverlaps,
    ...treeDisposables,
    ...registerContentProvider(session),
    ...registerCorpusCommands(context, session, salt),
    ...registerPlanFetch(context, session),
    ...registerJudge(context, session),
    ...registerReviewCommands(session, salt, active),
    ...labellingDisposables,
    ...registerCorpusReports(context, session, salt),
    ...registerSearchReplace(context, session, active),
    ...registerHubExport(context, session),
    ...registerProtectReferences(session),
    ...registerAuditSample(session),
    ...registerHalvesCommand(session),
    ...registerStatusBar(session),
    ...registerSampleCorpus(context, session),
    ...registerNewCorpus(session),
    ...registerQualityLabel(session, salt, active),
    ...registerFunnelReport(context, session, async ({ org, window, rule }) => {
      const node = tree.provider.findGroup(org, window, rule);
      if (node) await tree.view.reveal(node, { select: true, focus: true, expand: true });
    }),
  );
  const configFile = session.findConfig();
  if (configFile) {
    try {
      await session.open(configFile);
    } catch (e) {
      showError(log, (e as Error).message, `opening ${configFile}`);
    }
  }
  return api;
}

let openSession: CorpusSession | undefined;

/** VS Code waits for this before disposing the subscriptions: labels and flag decisions still pending reach the file. */
export async function deactivate(): Promise<void> {
  try {
    await openSession?.flush();
  } catch (e) {
    openSession?.log.error(`saving on shutdown: ${(e as Error).message}`);
  }
}
