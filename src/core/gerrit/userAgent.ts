// How this tool names itself to a Gerrit host: in the User-Agent header, and as the token it
// looks up in robots.txt. Read from package.json so a release bump changes it in one place.
import pkg from '../../../package.json';

/** The product token robots.txt groups are matched against (`User-agent: review-corpus`). */
export const ROBOTS_TOKEN: string = pkg.name;

/** `review-corpus/<version> (+<homepage>)`: names the tool, its version and where to read about it. */
export const USER_AGENT = `${pkg.name}/${pkg.version} (+${pkg.homepage})`;
