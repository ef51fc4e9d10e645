//! The boxed future that object-safe async trait methods return, shared by the transports and
//! the authorization seams (token store, prompt, machine grant) without either depending on the
//! other.

use std::future::Future;
use std::pin::Pin;

/// A boxed future, for object-safe async methods.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
