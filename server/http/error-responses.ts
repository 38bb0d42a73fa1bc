// The error answers every protected route may give, for its response schemas (OpenAPI).
import { ErrorResponse } from '../schemas/common.ts';

export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
