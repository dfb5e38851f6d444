import { Type } from '@sinclair/typebox';

export const Enum = <T extends string>(values: readonly T[], $id?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...($id ? { $id } : {}) });

export const WORKSPACES = ['personal', 'team', 'public'] as const;
export const STATUS_INPUTS = ['Uploaded', 'Queued', 'Complete', 'Error', 'Processing', 'All'] as const;
export const ANALYSIS_STATUSES = ['Uploaded', 'Queued', 'Processing', 'Complete', 'Error'] as const;
export const DYNAMIC_EXECUTION_STATUSES = ['PENDING', 'ERROR', 'SUCCESS', 'ALL'] as const;
export const ORDER_BY = ['created', 'name', 'size'] as const;
export const ORDERS = ['ASC', 'DESC'] as const;
export const ANALYSIS_SCOPES = ['PRIVATE', 'PUBLIC'] as const;
export const UPLOAD_FILE_TYPES = ['BINARY', 'DEBUG', 'PACKED', 'FIRMWARE'] as const;
export const STRING_SOURCES = ['SYSTEM', 'USER', 'AI_AGENT'] as const;
export const STAGES = ['ANALYSIS', 'POST_PROCESSING', 'INFERENCE'] as const;
export const STAGE_STATUSES = ['QUEUED', 'STARTED', 'FINISHED', 'ERROR'] as const;
export const ROLES = ['USER', 'ADMIN', 'SUPERADMIN', 'SYSTEM'] as const;
export const ISAS = ['x86', 'x86_64', 'arm'] as const;
export const PLATFORMS = ['linux', 'windows', 'android'] as const;
export const FILE_FORMATS = ['pe', 'elf', 'blob'] as const;

export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];
export type Stage = (typeof STAGES)[number];
export type StageStatus = (typeof STAGE_STATUSES)[number];
export type AnalysisScope = (typeof ANALYSIS_SCOPES)[number];
export type WorkspaceName = (typeof WORKSPACES)[number];

export const Workspace = Enum(WORKSPACES);
export const StatusInput = Enum(STATUS_INPUTS);
export const DynamicExecutionStatus = Enum(DYNAMIC_EXECUTION_STATUSES);
export const OrderBy = Enum(ORDER_BY);
export const Order = Enum(ORDERS);
export const AnalysisScopeSchema = Enum(ANALYSIS_SCOPES);
export const UploadFileType = Enum(UPLOAD_FILE_TYPES);
export const StringSource = Enum(STRING_SOURCES);
export const StageSchema = Enum(STAGES);
export const StageStatusSchema = Enum(STAGE_STATUSES);
export const Role = Enum(ROLES);
export const Isa = Enum(ISAS);
export const PlatformSchema = Enum(PLATFORMS);
export const FileFormat = Enum(FILE_FORMATS);
export const enumOf = Enum;

import { MODEL_NAMES } from './models.js';
export const ModelName = Enum(MODEL_NAMES);
