// Every use of @vscode/webview-ui-toolkit lives in webview/. Its maintainers deprecated it in January
// 2025 and archived the repository; replacing it (e.g. with @vscode-elements/elements) touches only
// this folder: swap these registrations and the tag names in elements.ts.
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeDataGrid,
  vsCodeDataGridCell,
  vsCodeDataGridRow,
  vsCodeDivider,
} from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(
    vsCodeDataGrid(),
    vsCodeDataGridRow(),
    vsCodeDataGridCell(),
    vsCodeBadge(),
    vsCodeDivider(),
  );
}

export const Tags = {
  grid: 'vscode-data-grid',
  row: 'vscode-data-grid-row',
  cell: 'vscode-data-grid-cell',
  badge: 'vscode-badge',
  divider: 'vscode-divider',
} as const;
