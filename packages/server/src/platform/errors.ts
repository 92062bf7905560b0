/** Typed errors that services throw; the app's error handler maps them to status codes. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
export class Invalid extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends AppError {
  constructor(message = 'You need to be logged in to do that.') {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
