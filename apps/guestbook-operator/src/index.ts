export { guestbookCRD, guestbooks, type Guestbook, type GuestbookStatus } from './guestbook.js';
export { installGuestbookCRD } from './install.js';
export { createGuestbookOperator, type GuestbookOperatorOptions } from './operator.js';
export { desiredDeployment, desiredService, FIELD_MANAGER, reconcileGuestbook, type OperatorClient } from './reconcile.js';
