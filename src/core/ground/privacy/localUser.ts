import { createHmac } from 'node:crypto';
import { userInfo } from 'node:os';

/**
 * The pseudonym of the person at this machine (a rater, or whoever unsealed a window):
 * HMAC-SHA256 of the salt and the local user name, so the name never reaches the file.
 */
export function localUserPseudonym(salt: string, userName: string = safeUserName()): string {
  return 'r_' + createHmac('sha256', salt).update(`local\n${userName}`).digest('hex').slice(0, 16);
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
