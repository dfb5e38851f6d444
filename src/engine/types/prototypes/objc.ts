// The Objective-C runtime (libobjc): message sends and the ARC entry points every Objective-C or Swift binary
// on macOS calls. objc_msgSend's real arguments are the method's, hence variadic.
import type { PrototypeModule } from './module.js';

export const objc: PrototypeModule = {
  name: 'objc',
  library: 'libobjc.A.dylib',
  platforms: ['macos'],
  declarations: `
typedef struct objc_object *id;
typedef struct objc_class *Class;
typedef struct objc_selector *SEL;
typedef signed char BOOL;
struct objc_super { id receiver; Class super_class; };

id objc_msgSend(id self, SEL op, ...);
id objc_msgSendSuper(struct objc_super *super, SEL op, ...);
id objc_msgSendSuper2(struct objc_super *super, SEL op, ...);
void objc_msgSend_stret(void *stretAddr, id self, SEL op, ...);
id objc_getClass(const char *name);
id objc_lookUpClass(const char *name);
Class objc_getMetaClass(const char *name);
SEL sel_registerName(const char *str);
SEL sel_getUid(const char *str);
const char *sel_getName(SEL sel);
const char *class_getName(Class cls);
Class object_getClass(id obj);
BOOL class_respondsToSelector(Class cls, SEL sel);
id objc_alloc(Class cls);
id objc_alloc_init(Class cls);
id objc_opt_new(Class cls);
id objc_retain(id value);
void objc_release(id value);
id objc_autorelease(id value);
id objc_retainAutorelease(id value);
id objc_retainAutoreleasedReturnValue(id value);
id objc_autoreleaseReturnValue(id value);
void *objc_autoreleasePoolPush(void);
void objc_autoreleasePoolPop(void *context);
void objc_storeStrong(id *location, id obj);
id objc_loadWeakRetained(id *location);
id objc_storeWeak(id *location, id obj);
void objc_destroyWeak(id *location);
_Noreturn void objc_exception_throw(id exception);
void objc_enumerationMutation(id obj);
`,
};
