//! Two crawls of one site compared (docs/API.md, "Comparing two crawls"): the use case
//! `GET /api/v1/crawls/{id}/compare` calls, over the comparison of [`super::change`].

use api::crawls::CrawlChange;

use super::change::{compare, site_of, CrawlFacts};
use super::Crawls;
use crate::{AppError, ErrorCode};
use vocab::CrawlId;

impl Crawls {
    /// How `owner`'s crawl `id` differs from their crawl `against` of the same site.
    ///
    /// # Errors
    /// `not_found` for either crawl unknown or another owner's; `invalid_request` naming
    /// `against` for a crawl of another site; `conflict` for a crawl not ended or whose
    /// pages were pruned; the store failed.
    pub async fn compare(
        &self,
        owner: Option<&crate::UserId>,
        id: &CrawlId,
        against: &CrawlId,
    ) -> Result<CrawlChange, AppError> {
        let current = self.owned(owner, id).await?;
        let other = self.owned(owner, against).await?;
        if site_of(&current.url) != site_of(&other.url) {
            return Err(AppError::invalid_parameter(
                "against",
                format!("a crawl of the same site as {id} ({}), not of {}", site_of(&current.url), site_of(&other.url)),
            ));
        }
        for c in [&current, &other] {
            if !c.state.is_terminal() {
                return Err(AppError::refused(
                    ErrorCode::Conflict,
                    format!("Crawl {} is {}: compare it once it has ended.", c.id, c.state.as_str()),
                ));
            }
            if c.pages_pruned_at.is_some() {
                return Err(AppError::refused(
                    ErrorCode::Conflict,
                    format!(
                        "Crawl {}'s pages were deleted by the retention sweep: it can no longer be compared.",
                        c.id
                    ),
                ));
            }
        }
        let facts = self.app.db(move |s| Ok((CrawlFacts::read(s, current)?, CrawlFacts::read(s, other)?))).await?;
        // The comparison grows with the crawls: the application's work, off the async workers.
        self.app.compute(move |_| compare(&facts.0, &facts.1)).await
    }
}
