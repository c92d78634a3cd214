// Walkthrough ids, as contributed in package.json (contributes.walkthroughs). VS Code names one
// `<publisher>.<name>#<id>` (workbench.action.openWalkthrough takes that).
export const Walkthroughs = {
  gettingStarted: 'gettingStarted',
} as const;
