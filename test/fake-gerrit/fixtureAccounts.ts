// Every account in the fake Gerrit fixtures. All of it is FABRICATED: no real person or account.
// Each value is a distinctive string so a privacy test can scan a built corpus's bytes for it and
// find it only if an id, name, username or email leaked. Keep these strings out of file contents
// and comment texts (the two deliberate leaks to pseudonymize are listed in fixtures/README.md).
import type { AccountInfo } from '../../src/core/gerrit/types';

/** Gerrit's AccountInfo fields (src/core/gerrit/types.ts), all set; `tags` has SERVICE_USER for a bot account. */
export interface FixtureAccount
  extends Required<Pick<AccountInfo, '_account_id' | 'name' | 'username' | 'email'>>, Pick<AccountInfo, 'tags'> {
  org: string;
  /** Why the account exists in the fixtures. */
  role: 'developer' | 'reviewer' | 'service-user bot' | 'listed bot' | 'template poster';
}

export const FIXTURE_ACCOUNTS: readonly FixtureAccount[] = [
  // openstack
  {
    org: 'openstack',
    _account_id: 1000001,
    name: 'Alice Example-Fixture',
    username: 'alice_fx',
    email: 'alice.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'openstack',
    _account_id: 1000002,
    name: 'Bruno Sample-Fixture',
    username: 'bruno_fx',
    email: 'bruno.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'openstack',
    _account_id: 1000003,
    name: 'Chiara Placeholder-Fixture',
    username: 'chiara_fx',
    email: 'chiara.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'openstack',
    _account_id: 1000004,
    name: 'Dmitri Dummy-Fixture',
    username: 'dmitri_fx',
    email: 'dmitri.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'openstack',
    _account_id: 1000005,
    name: 'Zuul Gate-Fixture',
    username: 'zuul_gate_fx',
    email: 'zuul-gate.fixture@example.invalid',
    tags: ['SERVICE_USER'],
    role: 'service-user bot',
  },
  {
    org: 'openstack',
    _account_id: 1000006,
    name: 'Émilie Testdaten-Fixture',
    username: 'emilie_fx',
    email: 'emilie.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'openstack',
    _account_id: 1000007,
    name: 'Farid Mock-Fixture',
    username: 'farid_fx',
    email: 'farid.fixture@example.invalid',
    role: 'developer',
  },
  // qt
  {
    org: 'qt',
    _account_id: 1000101,
    name: 'Greta Probe-Fixture',
    username: 'greta_fx',
    email: 'greta.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'qt',
    _account_id: 1000102,
    name: 'Hiroshi Beispiel-Fixture',
    username: 'hiroshi_fx',
    email: 'hiroshi.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'qt',
    _account_id: 1000103,
    name: 'Ingrid Muster-Fixture',
    username: 'ingrid_fx',
    email: 'ingrid.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'qt',
    _account_id: 1000104,
    name: 'Qt Sanity Bot-Fixture',
    username: 'qt_sanity_fx',
    email: 'qt-sanity.fixture@example.invalid',
    role: 'listed bot',
  },
  {
    org: 'qt',
    _account_id: 1000105,
    name: 'Lint Relay-Fixture',
    username: 'lint_relay_fx',
    email: 'lint-relay.fixture@example.invalid',
    role: 'template poster',
  },
  {
    org: 'qt',
    _account_id: 1000106,
    name: 'Łucja Wzorzec-Fixture',
    username: 'lucja_fx',
    email: 'lucja.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'qt',
    _account_id: 1000107,
    name: 'Qt CI Coin-Fixture',
    username: 'qt_coin_fx',
    email: 'qt-coin.fixture@example.invalid',
    tags: ['SERVICE_USER'],
    role: 'service-user bot',
  },
  // wikimedia
  {
    org: 'wikimedia',
    _account_id: 1000201,
    name: 'Mara Exemplar-Fixture',
    username: 'mara_fx',
    email: 'mara.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'wikimedia',
    _account_id: 1000202,
    name: 'Nikolai Stub-Fixture',
    username: 'nikolai_fx',
    email: 'nikolai.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'wikimedia',
    _account_id: 1000203,
    name: 'Oluwaseun Fake-Fixture',
    username: 'seun_fx',
    email: 'seun.fixture@example.invalid',
    role: 'reviewer',
  },
  {
    org: 'wikimedia',
    _account_id: 1000204,
    name: 'SonarQube Bot-Fixture',
    username: 'sonar_fx',
    email: 'sonar.fixture@example.invalid',
    tags: ['SERVICE_USER'],
    role: 'service-user bot',
  },
  {
    org: 'wikimedia',
    _account_id: 1000205,
    name: 'Priya Ersatz-Fixture',
    username: 'priya_fx',
    email: 'priya.fixture@example.invalid',
    role: 'developer',
  },
  {
    org: 'wikimedia',
    _account_id: 1000206,
    name: 'Library Upgrader-Fixture',
    username: 'libup_fx',
    email: 'libup.fixture@example.invalid',
    role: 'listed bot',
  },
  {
    org: 'wikimedia',
    _account_id: 1000207,
    name: 'L10n Updater-Fixture',
    username: 'l10n_fx',
    email: 'l10n.fixture@example.invalid',
    tags: ['SERVICE_USER'],
    role: 'service-user bot',
  },
];

/** Account ids a corpus config should list as `botAccounts` per org (bots NOT tagged SERVICE_USER). */
export const LISTED_BOT_ACCOUNTS: Readonly<Record<string, number[]>> = {
  openstack: [],
  qt: [1000104],
  wikimedia: [1000206],
};

export function fixtureAccount(org: string, username: string): FixtureAccount {
  const found = FIXTURE_ACCOUNTS.find((a) => a.org === org && a.username === username);
  if (!found) throw new Error(`no fixture account ${username} in ${org}`);
  return found;
}
