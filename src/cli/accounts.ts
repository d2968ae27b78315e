// `duckportal keys ...` and `duckportal users ...`: their flags.
import { optionalText, repeated, text, toggle, type FlagValues } from '../command-line/flags.js';

const portal = text('DIR', 'the portal folder', 'data/portal');

export const PORTAL_FLAGS = { portal };
export type PortalFlags = FlagValues<typeof PORTAL_FLAGS>;

export const KEY_CREATE_FLAGS = {
  portal,
  user: text('NAME', 'the user the key acts for'),
  group: repeated('GROUP', 'a group the key belongs to'),
  label: optionalText('TEXT', 'what the key is for, shown in the lists (at most 100 characters)'),
};
export type KeyCreateFlags = FlagValues<typeof KEY_CREATE_FLAGS>;

export const USER_ADD_FLAGS = {
  portal,
  group: repeated('GROUP', 'a group the user belongs to'),
  admin: toggle('the user administers the portal (group admin): publishes datasets from the account page'),
};
export type UserAddFlags = FlagValues<typeof USER_ADD_FLAGS>;
