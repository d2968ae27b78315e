// What goes wrong while publishing from the account page, with the status the page answers it
// with (400 a bad form, 403 an expired one, 404 no such draft, 409 a conflict, 413 too large,
// 502 a source URL that fails): the message is shown on the page.
export class PublishError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
